import { bulkTransactionsRead } from "@/features/transactions/reads/bulk-transactions";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(bulkTransactionsRead);
