import { transactionTotalsRead } from "@/features/players/reads/player-figures";
import { readRoute } from "@/platform/http/api-handler";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(transactionTotalsRead);
