import { readRoute } from "@/lib/http/api-handler";
import { bulkTransactionsRead } from "@/lib/reads/bulk-transactions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(bulkTransactionsRead);
