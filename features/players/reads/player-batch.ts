import { getPlayerProfiles } from "@/features/players/data/get-player-profiles";
import { maskProfileContact } from "@/features/players/data/mask-contact";
import { type PlayerBatch, playerBatchQuerySchema } from "@/features/players/schema/player";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import { invalidParameters } from "@/platform/problems/problem";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/** The search's parameters, which a batch read does not take. */
const SEARCH_ONLY = ["q", "assigned", "updated_since", "limit", "offset"] as const;

/** Whether a query string asks for a batch read (`ids`, or its `ids[]` form) rather than a search. */
export function isBatchRead(searchParams: URLSearchParams): boolean {
  return searchParams.has("ids") || searchParams.has("ids[]");
}

/**
 * A batch read names its players: a search term, a page or `assigned` beside `ids` would be ignored
 * silently, so each is a 400 naming it.
 */
export function rejectSearchWithIds(searchParams: URLSearchParams): void {
  const given = SEARCH_ONLY.filter((name) => searchParams.has(name));
  if (given.length === 0) return;
  throw invalidParameters(
    given.map((name) => ({
      name,
      in: "query" as const,
      detail: "cannot be combined with `ids` (a batch read names its players; search with `q` without `ids`)",
    })),
  );
}

/**
 * GET /players?ids=P1,P2,…: up to 100 full profiles in one request, each masked as GET /players/{playerId}
 * masks it, each recorded as that read's `profile` row in the audit trail. Unknown ids are listed in
 * `missing` (a 200: the others are answered).
 */
export const playerBatchRead = defineRead({
  params: {},
  query: playerBatchQuerySchema,
  run: async function playerBatchRead({ query, principal, db }) {
    const playerIds = [...new Set(query.ids)];
    const { players, missing } = await getPlayerProfiles({ playerIds }, db);
    const pii = hasScope(principal, SCOPES.playersPii);
    const body: PlayerBatch = { players: pii ? players : players.map(maskProfileContact), missing };
    return {
      body,
      audit: players.map((player) => ({ operation: "profile" as const, playerId: player.id })),
    };
  },
});
