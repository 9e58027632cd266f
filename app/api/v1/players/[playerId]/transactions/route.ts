import { readRoute } from "@/lib/http/api-handler";
import { playerTransactionsRead } from "@/lib/reads/player-transactions";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(playerTransactionsRead);
