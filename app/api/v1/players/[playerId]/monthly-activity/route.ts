import { routeRead } from "@/lib/db/read-router";
import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { getPlayerMonthlyActivity } from "@/lib/players/get-player-monthly-activity";
import { monthlyActivityQuerySchema } from "@/lib/schemas/activity";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function monthlyActivityRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const query = parseQuery(monthlyActivityQuerySchema, url.searchParams);
    const options = { playerId, months: query.months, toMonth: query.to_month };
    const activity = await routeRead((db) => getPlayerMonthlyActivity(options, db));
    audit({ operation: "monthly_activity", playerId });
    return jsonResponse(activity);
  },
);
