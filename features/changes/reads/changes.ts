import { withRecords } from "@/features/changes/data/change-records";
import { listChanges } from "@/features/changes/data/list-changes";
import { changesQuerySchema } from "@/features/changes/schema/change";
import { maskProfileContact } from "@/features/players";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import type { NextPage } from "@/platform/http/next-link";
import { feedGone, invalidParameters } from "@/platform/problems/problem";
import { defineRead } from "../../../platform/reads/read-definition.ts";

const START_AGAIN =
  "start again with a full read: note `feed` and `tail` from GET /changes?limit=1, read everything, then follow from that `tail`";

/**
 * GET /changes: the change feed. Needs `players:read` like every read; it names ids, kinds, statuses and versions
 * only (never contact data), so a caller without `players:pii` sees the same entries. With `include=record` each
 * entry carries its profile (masked as the profile read masks it) or transaction. Audited as `changes`, with the
 * players the page names: every player whose record it carries is one of them.
 *
 * A position is checked against the answering database's feed (docs/change-feed.md, "Which feed"): another feed
 * is a 410, and so is a position below the pruning horizon (after 0 without `feed` is the start, never refused);
 * a position beyond the tail stays the 400 it always was.
 */
export const changesRead = defineRead({
  params: {},
  query: changesQuerySchema,
  run: async function changesRead({ query, principal, db }) {
    const page = await listChanges(
      {
        after: query.after,
        limit: query.limit,
        kinds: query.kinds && [...new Set(query.kinds)],
        playerId: query.player_id,
      },
      db,
    );
    if (query.feed !== undefined && query.feed !== page.feed) {
      throw feedGone(`This position was issued by another change feed: ${START_AGAIN}.`, [
        {
          name: "feed",
          in: "query",
          detail: `is not this database's feed (${page.feed}): the database was restored, re-created, recovered to a point in time or its feed was reset since`,
        },
      ]);
    }
    if ((query.after > 0 || query.feed !== undefined) && query.after < page.prunedThrough) {
      throw feedGone(`Changes after this position were deleted from the log: ${START_AGAIN}.`, [
        {
          name: "after",
          in: "query",
          detail: `is below the pruning horizon (${page.prunedThrough}): changes after it were deleted`,
        },
      ]);
    }
    if (query.after > page.tail) {
      throw invalidParameters([
        {
          name: "after",
          in: "query",
          detail: `is beyond the end of the feed (its newest position is ${page.tail}): it was not issued by this database; start again from 0 (or from \`tail\`) after a full read`,
        },
      ]);
    }
    const pii = hasScope(principal, SCOPES.playersPii);
    const changes =
      query.include === "record"
        ? await withRecords(
            {
              changes: page.changes,
              showProfile: (profile) => (pii ? profile : maskProfileContact(profile)),
            },
            db,
          )
        : page.changes;
    // A record's player is its entry's: the players named include every player whose data the page carries.
    const players = [...new Set(page.changes.flatMap((c) => (c.player_id ? [c.player_id] : [])))];
    return {
      body: {
        changes,
        next: page.next,
        has_more: page.hasMore,
        tail: page.tail,
        feed: page.feed,
      },
      audit: { operation: "changes", playerId: null, resultPlayerIds: players },
    };
  },
  // With `feed`, so the next page is checked against the feed this one came from.
  next: (body): NextPage => (body.has_more ? { after: String(body.next), feed: body.feed } : null),
});
