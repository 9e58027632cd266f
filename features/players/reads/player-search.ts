import { maskSummaryContact } from "@/features/players/data/mask-contact";
import { searchPlayers } from "@/features/players/data/search-players";
import { playerSearchQuerySchema } from "@/features/players/schema/player";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import { managerNameOf } from "@/platform/auth/portfolio-access";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import { vipManagerSubjects } from "@/platform/auth/vip-managers";
import { offsetNextPage } from "@/platform/http/next-link";
import { invalidParameters } from "@/platform/problems/problem";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/**
 * `assigned=me`: the caller's own players, whose vip_manager is the manager the verified token's subject maps to
 * (platform/auth/vip-managers.ts, the portfolio's mapping); a caller who is no manager has no list of their own (400,
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

/**
 * GET /players without `ids`: a search by name, id, contact or transaction id, offset-paged, contact data masked
 * without players:pii. Audited as `search`, with the players the page names.
 */
export const playerSearchRead = defineRead({
  params: {},
  query: playerSearchQuerySchema,
  run: async function playerSearchRead({ query, principal, db }) {
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
    const { players, total, transactions } = await searchPlayers(options, db);
    // A transaction found by its id reveals its player: the audit row names that player too.
    const named = new Set([...players.map((p) => p.id), ...transactions.map((t) => t.player_id)]);
    const page = {
      limit: query.limit,
      offset: query.offset,
      has_more: query.offset + players.length < total,
    };
    return {
      body: { players: pii ? players : players.map(maskSummaryContact), total, ...page, transactions },
      audit: { operation: "search", playerId: null, resultPlayerIds: [...named] },
    };
  },
  next: (body) => offsetNextPage(body),
});
