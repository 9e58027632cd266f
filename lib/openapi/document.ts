import { z } from "zod";
import { createDocument } from "zod-openapi";
import { ROLE_SCOPES, ROLES, SCOPE_DESCRIPTIONS, SCOPES, type Scope } from "@/lib/auth/scopes";
import { monthlyActivityQuerySchema, monthlyActivityResponseSchema } from "@/lib/schemas/activity";
import {
  AUDIT_OPERATIONS,
  auditListQuerySchema,
  auditListResponseSchema,
  auditLogQuerySchema,
  auditLogResponseSchema,
} from "@/lib/schemas/audit";
import { problemSchema } from "@/lib/schemas/common";
import {
  changeEventSchema,
  feedEventSchema,
  playerEventsQuerySchema,
  renewEventSchema,
} from "@/lib/schemas/live";
import {
  playerIdSchema,
  playerProfileSchema,
  playerSearchQuerySchema,
  playerSearchResponseSchema,
} from "@/lib/schemas/player";
import {
  portfolioManagersQuerySchema,
  portfolioManagersResponseSchema,
  portfolioQuerySchema,
  portfolioResponseSchema,
} from "@/lib/schemas/portfolio";
import { playerSummarySchema, summaryQuerySchema } from "@/lib/schemas/summary";
import {
  transactionExportQuerySchema,
  transactionFacetsQuerySchema,
  transactionListQuerySchema,
  transactionListResponseSchema,
} from "@/lib/schemas/transaction";
import { transactionFacetsSchema } from "@/lib/schemas/transaction-facets";
import { transactionTotalsSchema } from "@/lib/schemas/transaction-totals";

const problem = (description: string) => ({
  description,
  content: { "application/problem+json": { schema: problemSchema } },
});

const requestIdHeader = z.string().meta({
  description:
    "The server's id of this request (a UUID), also in the problem body, the access log and the audit trail. A client's own X-Request-ID is recorded beside it, never taken as the id.",
});
const rateLimitHeaders = {
  "RateLimit-Policy": z.string().meta({
    description: 'The caller\'s quota (draft-ietf-httpapi-ratelimit-headers), e.g. `"default";q=600;w=60`.',
  }),
  RateLimit: z.string().meta({
    description:
      'Requests left in the current window and seconds until it ends, e.g. `"default";r=598;t=42`.',
  }),
  "RateLimit-Limit": z.string().meta({ description: "Requests allowed per window (earlier drafts' form)." }),
  "RateLimit-Remaining": z.string().meta({ description: "Requests left in the current window." }),
  "RateLimit-Reset": z.string().meta({ description: "Seconds until the window ends." }),
};
const ok = (description: string, schema: z.ZodType) => ({
  description,
  headers: z.object({
    "X-Request-ID": requestIdHeader,
    "Cache-Control": z.literal("no-store"),
    ...rateLimitHeaders,
  }),
  content: { "application/json": { schema } },
});
/** OpenAPI 3.1 lets a bearer scheme's requirement list the roles/scopes an operation needs. */
const requires = (scope: Scope) => [{ bearerAuth: [scope] }];

const sessionHeader = z.object({
  "X-Session-ID": z.string().meta({
    description:
      "Caller's session identifier: 1–128 printable ASCII characters. Required; it is recorded with the request but not matched against playerId or a session store.",
  }),
});

const commonErrors = {
  "401": problem(
    "Missing or rejected credentials (Authorization or X-Session-ID). Sent with `WWW-Authenticate: Bearer`.",
  ),
  "403": problem(
    "The token is valid but lacks the scope this operation needs (`insufficient_scope`); `WWW-Authenticate` names it.",
  ),
  "405": problem(
    "Only GET (and HEAD) are supported; every other method, OPTIONS and TRACE included, is this problem with `Allow: GET, HEAD` (no CORS: the API is called same-origin or server to server).",
  ),
  "429": {
    ...problem(
      "This caller's request quota is used up. Wait `Retry-After` seconds; the RateLimit headers describe the quota.",
    ),
    headers: z.object({ "Retry-After": z.string(), ...rateLimitHeaders }),
  },
  "500": problem("Unexpected failure; the body carries only a request id, the cause is logged."),
  "503": problem(
    "The database is unreachable or too slow (statement timeout), reads cannot be audited right now, or (AUTH_MODE=jwt with a JWKS URL) the issuer's key set cannot be fetched; retry after the `Retry-After` seconds.",
  ),
};

const playerPath = z.object({ playerId: playerIdSchema });

const SCOPE_TABLE = [
  "| Scope | Grants |",
  "|---|---|",
  ...Object.values(SCOPES).map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`),
].join("\n");
const ROLE_LIST = ROLES.map((r) => `\`${r}\` → ${ROLE_SCOPES[r].map((s) => `\`${s}\``).join(", ")}`).join(
  "; ",
);

const DESCRIPTION = `
Read-only access to gaming-platform players for back-office callers.

## Authentication
Every operation needs \`Authorization: Bearer <token>\` (scheme case-insensitive) and \`X-Session-ID\`.
With \`AUTH_MODE=demo\` (the embedded quick start) any non-empty token is accepted, as in the spec's demo deployment.
With \`AUTH_MODE=jwt\` the token must be a JWT signed with the configured shared secret (HS256/384/512) or a key of the
configured JWKS URL, unexpired (\`exp\` required), and carry the configured issuer and audience.

## Scopes
Access is least privilege. A verified token grants scopes through its OAuth-style \`scope\` claim (space-separated)
and through its role claims \`role\`, \`roles\` or \`groups\` (arrays or space-separated), mapped exactly as at sign-in;
a token granting none can read nothing (403). A token is refused (401) when it lives longer than the server's maximum
lifetime (24 h by default, \`exp − iat\`), is dated ahead, or carries a \`sid\` other than the \`X-Session-ID\` sent.
With a JWKS the issuer and audience are always checked.

${SCOPE_TABLE}

Roles: ${ROLE_LIST}.

In demo mode a token that verifies as one this deployment issued (signed with \`AUTH_JWT_SECRET\`) is read by its
claims; any other token gets \`players:read players:pii\`, as in the spec's demo deployment (not \`audit:read\`).

## Accountability
Every successful profile, transaction list, search, export and audit-trail read is recorded in an append-only audit
trail (who, session, player, operation, parameters, request id, client address); \`audit:read\` pages through it.

## Fair use
Requests are rate limited per caller (the verified token's subject, else the client address); every response of a
\`/players\` operation carries the quota in \`RateLimit-Policy\` / \`RateLimit\` (and the older \`RateLimit-Limit\`,
\`-Remaining\`, \`-Reset\`); beyond it the answer is 429 with \`Retry-After\`.

## Decisions on the specification's gaps
- **Presence**: every profile field is always present; unknown values are \`null\` (never omitted).
- **Money**: exact decimals stored as PostgreSQL numeric(20,8), written as JSON numbers with the stored digits
  (no binary floating point on the way out). Transaction amounts are signed from the player's point of view.
- **Time**: UTC ISO 8601 with milliseconds and \`Z\`.
- **KPIs**: \`ltd\` lifetime deposits, \`ltw\` lifetime withdrawals, \`ltnc\` lifetime net cash (ltd − ltw), \`wr\` wagering
  requirement still open on the active bonus. All derive from the player's transactions.
- **Order**: newest first by \`date\`, ties broken by \`id\` descending — a total order, so offset pages never overlap or skip.
- **List parameters**: repeated keys, comma-separated values and the \`name[]\` form are all accepted; values of one
  parameter combine with OR, different parameters with AND. Commas separate values in every form and spaces around
  each value are ignored, so an event name containing a comma cannot be filtered (the data has none). Event names
  otherwise match exactly (case-sensitive).
- **Date bounds**: inclusive. A date-only \`to_date\` includes that whole UTC day; a date-time without offset is UTC.
  \`from_date\` after \`to_date\` is a 400.
- **Paging**: \`limit\` 1–100 (default 20), \`offset\` 0–1,000,000,000 (default 0); \`total\` is exact; an offset past the end
  returns an empty page with the true total. Deep offsets cost more the deeper they go; machine callers reading far
  should follow \`next_cursor\` (keyset paging), which costs the same at any depth.
- **Exact totals at scale**: \`total\` is exact for every filter, also for players with millions of transactions: the
  database keeps per-player daily counts current itself (triggers), so counting reads days, not rows.
- **Strict parameters**: unknown query parameters, empty values and repeated single-value parameters are rejected with
  400, naming each offending parameter, so a typo never silently widens a filter.
- **Unknown player**: 404 for both operations (not an empty list).
- **Errors**: RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`request_id\` and, for invalid
  requests, \`errors[]\` naming each parameter or header. No stack traces or SQL are ever returned.
- **Caching**: responses carrying player data are \`Cache-Control: no-store\`.
`.trim();

export function buildOpenApiDocument() {
  return createDocument({
    openapi: "3.1.0",
    info: { title: "Player Account Read Service", version: "1.0.0", description: DESCRIPTION },
    servers: [{ url: "/api/v1", description: "This deployment" }],
    security: [{ bearerAuth: [] }],
    components: {
      // The live stream's event payloads: named here, as a text/event-stream body cannot reference them.
      schemas: {
        LiveFeedEvent: feedEventSchema,
        LiveChangeEvent: changeEventSchema,
        LiveRenewEvent: renewEventSchema,
      },
      securitySchemes: {
        bearerAuth: {
          type: "http",
          scheme: "bearer",
          bearerFormat: "JWT (AUTH_MODE=jwt) or any token (demo)",
          description: `Scopes (listed per operation): ${Object.values(SCOPES).join(", ")}. See the description above.`,
        },
      },
    },
    tags: [
      { name: "Players", description: "Player search, profiles, transactions, exports and activity." },
      { name: "Audit", description: "Who read which player's data, and when." },
    ],
    paths: {
      "/players": {
        get: {
          operationId: "searchPlayers",
          tags: ["Players"],
          security: requires(SCOPES.playersRead),
          summary: "Search players by id, name, e-mail, phone number or transaction id",
          description:
            "An addition to the spec for the back-office lookup: players ordered by id, and the transactions whose id is `q` (ignoring case) with their player. Names match without accents or case, word by word. Needs `players:read`; without `players:pii`, e-mail addresses and phone numbers are masked in the answer and match only when typed in full (an exact address ignoring case, a number by its digits): a part of one matches nothing, so contact data can be confirmed one whole guess at a time only, and each guess is audited. With `assigned=me`, only the players whose `vip_manager` is the caller (the verified token's `name` claim): a VIP manager's own list, recorded in the audit trail like any search.",
          requestParams: { query: playerSearchQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("A page of player summaries.", playerSearchResponseSchema),
            "400": problem("Invalid q, limit or offset, or an unknown parameter."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}": {
        get: {
          operationId: "getPlayerProfile",
          tags: ["Players"],
          security: requires(SCOPES.playersRead),
          description:
            "Needs `players:read`; without `players:pii` the `email` and `phone` fields are masked in the response.",
          summary: "Get complete player profile",
          requestParams: { path: playerPath, header: sessionHeader },
          responses: {
            "200": ok("The player's profile.", playerProfileSchema),
            "400": problem("Invalid playerId, or a query parameter was given (this operation takes none)."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/transactions": {
        get: {
          operationId: "listPlayerTransactions",
          tags: ["Players"],
          security: requires(SCOPES.playersRead),
          summary: "Get a player's transaction history",
          description:
            "Filterable, paged, newest first. Filters: values of one parameter OR, parameters AND, date bounds inclusive. Page with `offset` (as the spec says) or, for deep reads by machines, with `cursor` (keyset: pass the previous page's `next_cursor`; the same cost on page 10,000 as on page 1). `total` is exact in both modes and counts every match, not only those after the cursor.",
          requestParams: { path: playerPath, query: transactionListQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("A page of transactions with the exact total.", transactionListResponseSchema),
            "400": problem(
              "Invalid filter or paging parameter (also: a `cursor` this API did not issue, or `cursor` with a non-zero `offset`); `errors` names each one.",
            ),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/transactions/export": {
        get: {
          operationId: "exportPlayerTransactions",
          tags: ["Players"],
          security: requires(SCOPES.playersRead),
          summary: "Export a player's transactions as CSV or NDJSON",
          description:
            "An addition to the spec: every transaction matching the same filters as the list, newest first, no paging, streamed as it is read (constant memory on the server, first bytes at once, any size). Each row carries `player_id` and the transaction's fields; money has its exact digits, times are UTC ISO 8601. CSV: a header row, CRLF line ends, fields quoted when needed (RFC 4180), empty for null; every text field (all but date, amount, created_at and completed_at) that starts with a tab, CR or LF, or with `=`, `+`, `-`, `@` after leading blanks, is prefixed with `'` so spreadsheets never run it as a formula. NDJSON: one JSON object per line, the transaction record shape `npm run db:import` reads. Rows are read in batches, each continuing after the previous one: rows written while an export runs may or may not appear, none is repeated. A failure after the first bytes cuts the connection (the transfer is then visibly incomplete); so does a client that takes nothing for 30 s (the server's idle limit). One caller (token subject, else client address) runs at most 2 exports at once (server setting): a third is 429 with `Retry-After`. Recorded in the audit trail as `export`.",
          requestParams: { path: playerPath, query: transactionExportQuerySchema, header: sessionHeader },
          responses: {
            "200": {
              description: "The transactions; `Content-Disposition: attachment` names a file.",
              headers: z.object({
                "X-Request-ID": requestIdHeader,
                "Cache-Control": z.literal("no-store"),
                "Content-Disposition": z.string(),
                ...rateLimitHeaders,
              }),
              content: {
                "text/csv": { schema: z.string().meta({ description: "RFC 4180 CSV with a header row." }) },
                "application/x-ndjson": {
                  schema: z
                    .string()
                    .meta({ description: "One JSON transaction record (with `player_id`) per line." }),
                },
              },
            },
            "400": problem("Invalid filter or format, or an unknown parameter; `errors` names each one."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/transaction-facets": {
        get: {
          operationId: "getPlayerTransactionFacets",
          tags: ["Players"],
          summary: "Get the filter values of a player's transactions",
          description:
            "An addition to the spec for the back-office filters: the event types (all of them, with counts), the event names and creators the player actually has, with counts, and the span of the player's transaction dates. Takes the list's filters: faceted counts, each facet counted under every filter but its own.",
          security: requires(SCOPES.playersRead),
          requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("The player's filter values.", transactionFacetsSchema),
            "400": problem("Invalid playerId or filter, or an unknown parameter; `errors` names each one."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/transaction-totals": {
        get: {
          operationId: "getPlayerTransactionTotals",
          tags: ["Players"],
          summary: "Get the count and sum of a player's transactions under filters",
          description:
            "An addition to the spec for the totals row under the back office's transaction table: takes the list's filters and answers the number of matching transactions and their exact signed sum per currency. Completed deposits, withdrawals, bets and wins are summed from the per-day statistics (whole UTC days) plus the partial days at a range's ends; other filters row by row.",
          security: requires(SCOPES.playersRead),
          requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("The totals under the filters.", transactionTotalsSchema),
            "400": problem("Invalid playerId or filter, or an unknown parameter; `errors` names each one."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/monthly-activity": {
        get: {
          operationId: "getPlayerMonthlyActivity",
          tags: ["Players"],
          summary: "Get a player's deposits, withdrawals, bets and wins per month",
          description:
            "An addition to the spec for the back-office activity chart: completed transactions per UTC calendar month, by transaction `date`, for `months` months ending with `to_month` (default: the last 12 months including the current one).",
          security: requires(SCOPES.playersRead),
          requestParams: { path: playerPath, query: monthlyActivityQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("One entry per month, oldest first.", monthlyActivityResponseSchema),
            "400": problem("Invalid playerId, months or to_month, or an unknown parameter."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/summary": {
        get: {
          operationId: "getPlayerPeriodSummary",
          tags: ["Players"],
          summary: "Get a player's figures for a period",
          description:
            "An addition to the spec for the back-office player page: for the last 30, 90 or 365 UTC days (today included) or all time, completed deposits and withdrawals (count, sum, average), net deposits, bets, wins, gross gaming revenue (`bets − wins`, positive when the house won), bonus grants, and the first and last activity. Exact: counted from the per-day statistics, whole UTC days only.",
          security: requires(SCOPES.playersRead),
          requestParams: { path: playerPath, query: summaryQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("The player's figures for the period.", playerSummarySchema),
            "400": problem("Invalid playerId or period, or an unknown parameter."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/players/{playerId}/events": {
        get: {
          operationId: "streamPlayerChanges",
          tags: ["Players"],
          summary: "Follow a player's changes (Server-Sent Events)",
          description:
            "An addition for the back-office pages: a `text/event-stream` that nudges when the player's data changes (a transaction or profile applied by the ingest consumer), so the caller reads the profile, list or summary again; the nudge itself carries no player data. Events: `feed` (`LiveFeedEvent`: the feed's state, at once and at every change), `change` (`LiveChangeEvent`), `renew` (`LiveRenewEvent`: the stream ends by design after a few minutes, server setting LIVE_STREAM_MAX_SECONDS; open a new one, which checks the token again). A comment line every 15 s keeps it alive. Call it with `fetch` and the same headers as every read (a browser's EventSource cannot send them). Opening a stream is recorded in the audit trail as `live_updates`, once per stream; the nudges are not. One caller holds at most 8 streams (server setting): beyond it 429. No database notifications on this server (the embedded database, or LIVE_UPDATES=off): 503 with `Retry-After: 60`.",
          security: requires(SCOPES.playersRead),
          requestParams: { path: playerPath, query: playerEventsQuerySchema, header: sessionHeader },
          responses: {
            "200": {
              description:
                "The stream: `event: feed`, `event: change` and `event: renew` lines, each with one JSON `data:` line.",
              headers: z.object({
                "X-Request-ID": requestIdHeader,
                "Cache-Control": z.literal("no-store, no-transform"),
                ...rateLimitHeaders,
              }),
              content: {
                "text/event-stream": {
                  schema: z.string().meta({
                    description:
                      "Server-Sent Events; `data` is LiveFeedEvent, LiveChangeEvent or LiveRenewEvent by `event`.",
                  }),
                },
              },
            },
            "400": problem("Invalid playerId, or any query parameter (it takes none)."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/portfolio": {
        get: {
          operationId: "getPortfolio",
          tags: ["Players"],
          summary: "Get a VIP manager's portfolio",
          description:
            "An addition to the spec for the back office's **My players** page: every player whose `vip_manager` is the manager, with the last 30 UTC days' completed deposits, withdrawals, net deposits and GGR against the 30 days before, days since the last deposit and the last transaction, pending withdrawals (count, amount, oldest) and the flags `churn_risk`, `big_withdrawal`, `pending_withdrawal_24h` and `deposit_spike` (see PortfolioFlag; thresholds in `flag_rules`). Who may read whose book: an admin any manager's (and must name one); a VIP manager only their own, matched by the verified token's `name` claim; nobody else (403). Recorded in the audit trail as `portfolio` with the ids of the players returned.",
          security: requires(SCOPES.playersRead),
          requestParams: { query: portfolioQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("The manager's players, ordered by id.", portfolioResponseSchema),
            "400": problem("Invalid `manager`, `manager` left out by an admin, or an unknown parameter."),
            ...commonErrors,
            "403": problem(
              "The token lacks `players:read`, or the caller may not read this book: a VIP manager naming another manager (or whose token carries no `name`), a support agent, a client without a role. `errors` names `manager`.",
            ),
          },
        },
      },
      "/portfolio/managers": {
        get: {
          operationId: "listPortfolioManagers",
          tags: ["Players"],
          summary: "List the VIP managers and the size of their books",
          description:
            "Admins only: every `vip_manager` value named on a profile, with its number of players, for choosing a book to read with `GET /portfolio?manager=…`. Names of staff, not player data: not recorded in the audit trail.",
          security: requires(SCOPES.playersRead),
          requestParams: { query: portfolioManagersQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("The managers, by name.", portfolioManagersResponseSchema),
            "400": problem("An unknown parameter."),
            ...commonErrors,
            "403": problem("The token lacks `players:read`, or the caller is not an admin."),
          },
        },
      },
      "/players/{playerId}/audit": {
        get: {
          operationId: "listPlayerAuditEvents",
          tags: ["Audit"],
          summary: "Page through a player's audit trail",
          description: `Admins only (\`audit:read\`). Who read this player's data: reads naming the player (operations ${AUDIT_OPERATIONS.map((o) => `\`${o}\``).join(", ")}) and searches whose results contained the player. Newest first, cursor paging. Reading the trail is itself recorded.`,
          security: requires(SCOPES.auditRead),
          requestParams: { path: playerPath, query: auditListQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("A page of audit events.", auditListResponseSchema),
            "400": problem("Invalid operation, cursor or limit, or an unknown parameter."),
            "404": problem("No player with this id."),
            ...commonErrors,
          },
        },
      },
      "/audit": {
        get: {
          operationId: "listAuditLog",
          tags: ["Audit"],
          summary: "Page through the audit trail across all players",
          description:
            "Admins only (`audit:read`). Every recorded read, newest first, optionally narrowed by user (`subject`: the id exactly; `user`: the id, or the display name or its beginning), player (named in the path or returned by a search), operation and period. With `player_id` the answer also says who read that player's data, how often and when last (`readers`). Cursor paging: keep the filters and pass `next_cursor` as `cursor`. Reading it is itself recorded (`audit_trail`); the back office hides those reads unless asked (`operation` without `audit_trail`).",
          security: requires(SCOPES.auditRead),
          requestParams: { query: auditLogQuerySchema, header: sessionHeader },
          responses: {
            "200": ok("A page of audit events.", auditLogResponseSchema),
            "400": problem(
              "Invalid subject, user, player_id, operation, from_date, to_date (or from_date after to_date), cursor or limit, or an unknown parameter.",
            ),
            ...commonErrors,
          },
        },
      },
    },
  });
}
