import { z } from "zod";
import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { getPlayerProfile } from "@/lib/players/get-player-profile";
import { maskProfileContact } from "@/lib/players/mask-contact";
import { playerIdSchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

/** The profile takes no query parameters; built once (building a zod schema costs ~100× parsing with it). */
const noQuery = z.strictObject({});

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function playerProfileRoute({ params, url, principal, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    parseQuery(noQuery, url.searchParams);
    const profile = await getPlayerProfile({ playerId });
    audit({ operation: "profile", playerId });
    return jsonResponse(hasScope(principal, SCOPES.playersPii) ? profile : maskProfileContact(profile));
  },
);
