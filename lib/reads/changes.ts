import { listChanges } from "@/lib/changes/list-changes";
import { invalidParameters } from "@/lib/http/problem";
import { changesQuerySchema } from "@/lib/schemas/change";
import { defineRead } from "./read-definition.ts";

/**
 * GET /changes: the change feed. Needs `players:read` like every read; it names ids, kinds, statuses and versions
 * only (never contact data), so a caller without `players:pii` sees the same entries. Audited as `changes`, with
 * the players the page names.
 */
export const changesRead = defineRead({
  params: {},
  query: changesQuerySchema,
  run: async function changesRead({ query }) {
    const page = await listChanges({ after: query.after, limit: query.limit });
    if (query.after > page.tail) {
      throw invalidParameters([
        {
          name: "after",
          in: "query",
          detail: `is beyond the end of the feed (its newest position is ${page.tail}): it was not issued by this database; start again from 0 (or from \`tail\`) after a full read`,
        },
      ]);
    }
    const players = [...new Set(page.changes.flatMap((c) => (c.player_id ? [c.player_id] : [])))];
    return {
      body: { changes: page.changes, next: page.next, has_more: page.hasMore, tail: page.tail },
      audit: { operation: "changes", playerId: null, resultPlayerIds: players },
    };
  },
});
