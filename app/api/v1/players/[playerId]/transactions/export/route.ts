import { transactionExport } from "@/features/exports/reads/transaction-export";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(transactionExport);
