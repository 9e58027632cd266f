import { playerTransactionsRead } from "@/features/transactions/reads/player-transactions";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerTransactionsRead);
