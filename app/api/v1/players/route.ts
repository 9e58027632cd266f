import type { ApiPrincipal } from "@/lib/auth/api-auth";
import { managerNameOf } from "@/lib/auth/portfolio-access";
import { hasScope, SCOPES } from "@/lib/auth/scopes";
import { vipManagerSubjects } from "@/lib/auth/vip-managers";
import { routeRead } from "@/lib/db/read-router";
import type { ApiContext } from "@/lib/http/api-context";
import { readHandler, readRoute } from "@/lib/http/api-handler";
import { nextLinkHeaders, offsetNextPage } from "@/lib/http/next-link";
import { parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { maskSummaryContact } from "@/lib/players/mask-contact";
import { searchPlayers } from "@/lib/players/search-players";
import { invalidParameters } from "@/lib/problems/problem";
import { isBatchRead, playerBatchRead, rejectSearchWithIds } from "@/lib/reads/player-batch";
import { playerSearchQuerySchema } from "@/lib/schemas/player";

export const dynamic = "force-dynamic";

/**
 * `assigned=me`: the caller's own players, whose vip_manager is the manager the verified token's subject maps to
 * (lib/auth/vip-managers.ts, the portfolio's mapping); a caller who is no manager has no list of their own (400,
 * not every player).
 */
function assignedManager(principal: ApiPrincipal): string {
  const name = managerNameOf(principal, vipManagerSubjects());
  if (name !== null) return name;
  throw invalidParameters([
    {
      name: "assigned",
      in: "query",
      detail: "needs a signed-in caller who is a VIP manager (mapped by VIP_MANAGER_SUBJECTS)",
    },
  ]);
}

const batchRead = readHandler(playerBatchRead);

/** `ids=…` is a batch read of full profiles (lib/reads/player-batch.ts); anything else a search. */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(async function playersRoute(context) {
  if (!isBatchRead(context.url.searchParams)) return playerSearch(context);
  rejectSearchWithIds(context.url.searchParams);
  return batchRead(context);
});

async function playerSearch({
  url,
  principal,
  audit,
}: ApiContext<Record<string, string>>): Promise<Response> {
  const query = parseQuery(playerSearchQuerySchema, url.searchParams);
  const pii = hasScope(principal, SCOPES.playersPii);
  const vipManager = query.assigned === "me" ? assignedManager(principal) : undefined;
  const options = {
    q: query.q,
    limit: query.limit,
    offset: query.offset,
    contact: pii ? ("partial" as const) : ("exact" as const),
    vipManager,
    updatedSince: query.updated_since,
  };
  const { players, total, transactions } = await routeRead((db) => searchPlayers(options, db));
  // A transaction found by its id reveals its player: the audit row names that player too.
  const named = new Set([...players.map((p) => p.id), ...transactions.map((t) => t.player_id)]);
  audit({ operation: "search", playerId: null, resultPlayerIds: [...named] });
  const page = { limit: query.limit, offset: query.offset, has_more: query.offset + players.length < total };
  return jsonResponse(
    { players: pii ? players : players.map(maskSummaryContact), total, ...page, transactions },
    { headers: nextLinkHeaders(url, offsetNextPage(page)) },
  );
}
