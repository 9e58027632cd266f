import { jsonResponse, readOnlyMethods, withApi } from "@/lib/http/api-handler";
import { parseQuery } from "@/lib/http/query";
import { searchPlayers } from "@/lib/players/search-players";
import { playerSearchQuerySchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

export const GET = withApi(async ({ url }) => {
  const query = parseQuery(playerSearchQuerySchema, url.searchParams);
  const { players, total } = await searchPlayers(query.q, query);
  return jsonResponse({
    players,
    total,
    limit: query.limit,
    offset: query.offset,
    has_more: query.offset + players.length < total,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
