import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { jsonResponse, readOnlyMethods, withApi } from "@/lib/http/api-handler";
import { parseQuery } from "@/lib/http/query";
import { maskSummaryContact } from "@/lib/players/mask-contact";
import { searchPlayers } from "@/lib/players/search-players";
import { playerSearchQuerySchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi(async ({ url, principal, audit }) => {
  const query = parseQuery(playerSearchQuerySchema, url.searchParams);
  const pii = hasScope(principal, SCOPES.playersPii);
  const { players, total } = await searchPlayers(query.q, query, undefined, { matchEmail: pii });
  audit({ operation: "search", playerId: null, resultPlayerIds: players.map((p) => p.id) });
  return jsonResponse({
    players: pii ? players : players.map(maskSummaryContact),
    total,
    limit: query.limit,
    offset: query.offset,
    has_more: query.offset + players.length < total,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
