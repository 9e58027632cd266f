import { readRoute } from "@/lib/http/api-handler";
import { transactionTotalsRead } from "@/lib/reads/player-figures";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(transactionTotalsRead);
