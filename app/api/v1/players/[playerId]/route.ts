import { z } from "zod";
import { jsonResponse, readOnlyMethods, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { getPlayerProfile } from "@/lib/players/get-player-profile";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi<{ playerId: string }>(async ({ params, url }) => {
  const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
  parseQuery(z.strictObject({}), url.searchParams);
  const profile = await getPlayerProfile(playerId);
  if (!profile) throw notFound(`No player with id '${playerId}'.`);
  return jsonResponse(profile);
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
