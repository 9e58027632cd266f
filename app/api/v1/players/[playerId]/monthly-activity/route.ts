import { jsonResponse, methodNotAllowedHandler, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { getPlayerMonthlyActivity } from "@/lib/players/get-player-monthly-activity";
import { monthlyActivityQuerySchema } from "@/lib/schemas/activity";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi<{ playerId: string }>(async ({ params, url, audit }) => {
  const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
  const query = parseQuery(monthlyActivityQuerySchema, url.searchParams);
  const activity = await getPlayerMonthlyActivity(playerId, {
    months: query.months,
    toMonth: query.to_month,
  });
  if (!activity) throw notFound(`No player with id '${playerId}'.`);
  audit({ operation: "monthly_activity", playerId });
  return jsonResponse(activity);
});

export const POST = methodNotAllowedHandler();
export const PUT = POST;
export const PATCH = POST;
export const DELETE = POST;
