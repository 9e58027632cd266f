import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import { commonErrors, ok, problem, requires, sessionHeader } from "@/lib/openapi/operation-parts";
import { changeListResponseSchema, changesQuerySchema } from "@/lib/schemas/change";

/* The change feed (docs/change-feed.md). */

const problemExample = (status: number, title: string, detail: string) => ({
  type: "about:blank",
  title,
  status,
  detail,
  request_id: "6f1c2d3e-4b5a-4c6d-8e9f-0a1b2c3d4e5f",
});

const withExample = <R extends { content: Record<string, object> }>(response: R, example: object): R => {
  const [media, body] = Object.entries(response.content)[0] ?? ["application/json", {}];
  return { ...response, content: { [media]: { ...body, example } } };
};

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
};

const errorExamples: Record<string, [string, string]> = {
  "401": ["Unauthorized", "Missing bearer token."],
  "403": ["Forbidden", "This operation needs the scope 'players:read'."],
  "405": ["Method Not Allowed", "Method POST is not allowed; use GET or HEAD."],
  "429": ["Too Many Requests", "Rate limit exceeded; retry after 42 seconds."],
  "500": ["Internal Server Error", "Unexpected failure; quote the request id."],
  "503": ["Service Unavailable", "The database is unreachable; try again shortly."],
};

const errorsWithExamples = Object.fromEntries(
  Object.entries(commonErrors).map(([status, response]) => {
    const [title, detail] = errorExamples[status] ?? ["Error", "See the status."];
    return [status, withExample(response, problemExample(Number(status), title, detail))];
  }),
);

const listChanges = {
  operationId: "listChanges",
  tags: ["Changes"],
  security: requires(SCOPES.playersRead),
  summary: "List what changed, in commit order (incremental sync)",
  description:
    "An addition to the spec for machine clients: every change to players and transactions, from every writer (the seed, `db:generate`, `db:import`, the live wallet consumer), in COMMIT order. Follow it by passing each answer's `next` as `after`; an empty page returns the same `next`, so a poller keeps its place. Positions are assigned when a write commits, under a lock, so a change that commits after a page was read always comes after that page's `next`: a reader never skips one, however many writers commit concurrently. A new syncer notes `tail` (e.g. `?limit=1`), reads the full state, then follows from that `tail`. Entries tell ids, kinds, a transaction's committed status and versions only, never contact data: callers with or without `players:pii` see the same feed. Needs `players:read`; each page is recorded in the audit trail as `changes`, with the players it names. Bulk loads log coarsely: `player.transactions_changed` (one entry per player for a statement of more than 10,000 transactions: re-read that player's transactions with `updated_since` = `changed_at`) and `reset` (the seed or `db:generate` replaced everything: read everything again). See docs/change-feed.md.",
  requestParams: { query: changesQuerySchema, header: sessionHeader },
  responses: {
    "200": withExample(ok("A page of changes after `after`.", changeListResponseSchema), pageExample),
    "400": withExample(
      problem("Invalid `after` or `limit` (not a whole number, out of range, or beyond the feed's end)."),
      {
        ...problemExample(
          400,
          "Bad Request",
          "Parameter 'after' is beyond the end of the feed (its newest position is 43): it was not issued by this database; start again from 0 (or from `tail`) after a full read.",
        ),
        errors: [
          {
            name: "after",
            in: "query",
            detail:
              "is beyond the end of the feed (its newest position is 43): it was not issued by this database; start again from 0 (or from `tail`) after a full read",
          },
        ],
      },
    ),
    ...errorsWithExamples,
  },
} satisfies ZodOpenApiOperationObject;

export const changePaths = {
  "/changes": { get: listChanges },
} satisfies ZodOpenApiPathsObject;
