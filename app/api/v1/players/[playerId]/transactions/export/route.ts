import { readRoute } from "@/lib/http/api-handler";
import { transactionExport } from "@/lib/reads/transaction-export";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(transactionExport);
