import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { getPlayerSummary } from "@/lib/players/get-player-summary";
import { playerIdSchema } from "@/lib/schemas/player";
import { summaryQuerySchema } from "@/lib/schemas/summary";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function playerSummaryRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const { period } = parseQuery(summaryQuerySchema, url.searchParams);
    const summary = await routeRead((db) => getPlayerSummary({ playerId, period }, db));
    audit({ operation: "summary", playerId });
    return jsonResponse(summary);
  },
);
