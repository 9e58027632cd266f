import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { getPlayerTransactionFacets } from "@/lib/players/get-player-transaction-facets";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionFacetsQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function transactionFacetsRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const filters = parseQuery(transactionFacetsQuerySchema, url.searchParams);
    const facets = await routeRead((db) => getPlayerTransactionFacets({ playerId, filters }, db));
    audit({ operation: "transaction_facets", playerId });
    return jsonResponse(facets);
  },
);
