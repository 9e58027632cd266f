import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { sumPlayerTransactions } from "@/lib/players/sum-player-transactions";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionFacetsQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function transactionTotalsRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const filters = parseQuery(transactionFacetsQuerySchema, url.searchParams);
    const totals = await routeRead((db) => sumPlayerTransactions({ playerId, filters }, db));
    audit({ operation: "transaction_totals", playerId });
    return jsonResponse(totals);
  },
);
