import { z } from "zod";
import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { jsonResponse, readOnlyMethods, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { getPlayerProfile } from "@/lib/players/get-player-profile";
import { maskProfileContact } from "@/lib/players/mask-contact";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi<{ playerId: string }>(async ({ params, url, principal, audit }) => {
  const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
  parseQuery(z.strictObject({}), url.searchParams);
  const profile = await getPlayerProfile(playerId);
  if (!profile) throw notFound(`No player with id '${playerId}'.`);
  audit({ operation: "profile", playerId });
  return jsonResponse(hasScope(principal, SCOPES.playersPii) ? profile : maskProfileContact(profile));
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
