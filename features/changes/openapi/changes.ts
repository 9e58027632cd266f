import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { changeListResponseSchema, changesQuerySchema } from "@/features/changes/schema/change";
import { SCOPES } from "@/platform/auth/scopes";
import { ok, paged, problem, readHeaders, readResponses, requires } from "@/platform/openapi/operation-parts";

/* The change feed (docs/change-feed.md). */

const pageExample = {
  changes: [
    {
      position: 41,
      kind: "transaction.created",
      player_id: "P000007",
      transaction_id: "T0000004711",
      status: "pending",
      version: 1,
      changed_at: "2026-11-26T05:00:00.000Z",
    },
    {
      position: 42,
      kind: "transaction.updated",
      player_id: "P000007",
      transaction_id: "T0000004711",
      status: "completed",
      version: 2,
      changed_at: "2026-11-26T05:00:01.250Z",
    },
    {
      position: 43,
      kind: "player.updated",
      player_id: "P000007",
      transaction_id: null,
      status: null,
      version: 3,
      changed_at: "2026-11-26T05:00:01.250Z",
    },
  ],
  next: 43,
  has_more: false,
  tail: 43,
  feed: "3f9a0c2e71d84b5a9e6f1c0b2d7a4e58",
};

const listChanges = {
  operationId: "listChanges",
  tags: ["Changes"],
  security: requires(SCOPES.playersRead),
  summary: "List what changed, in commit order (incremental sync)",
  description:
    "An addition to the spec for machine clients: every change to players and transactions, from every writer (the seed, `db:generate`, `db:import`, the live wallet consumer), in COMMIT order. Follow it by passing each answer's `next` as `after`, with its `feed` as `feed`; an empty page returns the same `next`, so a poller keeps its place. Positions are assigned when a write commits, under a lock, so a change that commits after a page was read always comes after that page's `next`: a reader never skips one, however many writers commit concurrently. A new syncer notes `tail` and `feed` (e.g. `?limit=1`), reads the full state, then follows from that `tail`. `feed` names this database's feed: a position from another one (a dump restored elsewhere, a re-created database, a point-in-time recovery, a feed reset), or one below the pruning horizon (entries after it deleted), is a 410 of its own type, `/problems/feed-gone`: start again with a full read. Entries tell ids, kinds, a transaction's committed status and versions only, never contact data: callers with or without `players:pii` see the same feed. Needs `players:read`; each page is recorded in the audit trail as `changes`, with the players it names. `include=record` puts each entry's record in it as it is now (`record`: the profile, masked without `players:pii`, or the transaction; null once deleted), fetched in bulk for the page, so a syncer needs no read per change. `kinds` and `player_id` keep only some entries; `next` still moves past the others (a filtered page examines at most 10,000 entries and may list none while `has_more`). Bulk loads log coarsely: `player.transactions_changed` (one entry per player for a statement of more than 10,000 transactions: re-read that player's transactions with `updated_since` = `changed_at`) and `reset` (the seed or `db:generate` replaced everything: read everything again). See docs/change-feed.md.",
  requestParams: { query: changesQuerySchema, header: readHeaders },
  responses: {
    ...readResponses(
      paged(
        ok(
          "A page of changes after `after`. While `has_more`, `Link` names the next page (`after` = `next`, with `feed`, the filters kept); at the tail it is absent: poll with `next` as `after`.",
          changeListResponseSchema,
          pageExample,
        ),
      ),
      "Invalid `after`, `feed`, `limit`, `include`, `kinds` or `player_id` (an unknown kind, a malformed player id; not a whole number, out of range, or beyond the feed's end: a position this database did not issue; start again from 0, or from `tail` after a full read).",
    ),
    "410": problem(
      "The feed cannot continue from this position: `feed` is not this database's feed, or changes after `after` were deleted from the log (`errors[]` names which). Start again with a full read (note `feed` and `tail` first); the same request fails again.",
      ["feed-gone"],
    ),
  },
} satisfies ZodOpenApiOperationObject;

export const changePaths = {
  "/changes": { get: listChanges },
} satisfies ZodOpenApiPathsObject;
