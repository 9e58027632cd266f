import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { transactionPageExample } from "@/features/api-docs";
import {
  transactionExportLineSchema,
  transactionExportQuerySchema,
  transactionFacetsQuerySchema,
  transactionListQuerySchema,
  transactionListResponseSchema,
} from "@/features/transactions/schema/transaction";
import { transactionFacetsSchema } from "@/features/transactions/schema/transaction-facets";
import { transactionTotalsSchema } from "@/features/transactions/schema/transaction-totals";
import { SCOPES } from "@/platform/auth/scopes";
import { exportHeaders, RESUME_RECIPE } from "@/platform/openapi/export-parts";
import {
  ok,
  paged,
  playerPath,
  problem,
  rateLimitHeaders,
  readHeaders,
  readResponses,
  requires,
  sessionHeader,
} from "@/platform/openapi/operation-parts";

/*
 * A player's transactions: the list, the export, the filter values and the totals. The keys' order is their
 * order in the document.
 */

const listPlayerTransactions = {
  operationId: "listPlayerTransactions",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  summary: "Get a player's transaction history",
  description:
    "Filterable, paged, newest first. Filters: values of one parameter OR, parameters AND, date bounds inclusive. Page with `offset` (as the spec says) or, for deep reads by machines, with `cursor` (keyset: pass the previous page's `next_cursor`; the same cost on page 10,000 as on page 1). `total` is exact in both modes and counts every match, not only those after the cursor.",
  requestParams: { path: playerPath, query: transactionListQuerySchema, header: readHeaders },
  responses: {
    ...readResponses(
      paged(
        ok(
          "A page of transactions with the exact total. `Link` names the next page, paged as this one was (`offset` + `limit`, or `cursor` = `next_cursor`).",
          transactionListResponseSchema,
          transactionPageExample,
        ),
      ),
      "Invalid filter or paging parameter (also: a `cursor` this API did not issue, or `cursor` with a non-zero `offset`); `errors` names each one.",
      { player: true },
    ),
    "429": {
      ...problem(
        "Either this caller's request quota is used up (with the RateLimit headers), or it already runs its most exports at once: retry after `Retry-After` seconds.",
        ["rate-limited", "too-many-exports"],
      ),
      headers: z.object({ "Retry-After": z.string(), ...rateLimitHeaders }),
    },
  },
} satisfies ZodOpenApiOperationObject;

const exportPlayerTransactions = {
  operationId: "exportPlayerTransactions",
  tags: ["Players"],
  security: requires(SCOPES.playersRead),
  summary: "Export a player's transactions as CSV or NDJSON",
  description:
    "An addition to the spec: every transaction matching the same filters as the list, in the order `sort` (newest first by default), no paging, streamed as it is read (constant memory on the server, first bytes at once, any size). Each row carries `player_id` and the transaction's fields as the list writes them, `updated_at` last (`TransactionExportLine`); money has its exact digits, times are UTC ISO 8601. CSV: a header row, CRLF line ends, fields quoted when needed (RFC 4180), empty for null; every text field (all but date, amount, created_at and completed_at) that starts with a tab, CR or LF, or with `=`, `+`, `-`, `@` after leading blanks, is prefixed with `'` so spreadsheets never run it as a formula. NDJSON: one `TransactionExportLine` JSON object per line (`npm run db:import` reads it and ignores `updated_at`). Rows are read in batches, each continuing after the previous one: rows written while an export runs may or may not appear, none is repeated. A failure after the first bytes cuts the connection (the transfer is then visibly incomplete); so does a client that takes nothing for 30 s (the server's idle limit). One caller (token subject, else client address) runs at most 2 exports at once (server setting): a third is 429 with `Retry-After` and the problem type `/problems/too-many-exports` (its own: the request quota, `/problems/rate-limited`, may have plenty left). Recorded in the audit trail as `export`. `X-Total-Count` sends the number of rows at once; `Accept-Encoding: gzip` gets a gzip body. Every row carries its `id` (CSV: the `id` column), the key to resume with: " +
    RESUME_RECIPE +
    " A resumed CSV has no header row (`header=absent` in its media type), so its bytes append to the first part's. When the last row received may have been deleted since (`after` alone then answers 400), resume from its place in the order instead, as the list's `next_cursor` does: add its `date` as `after_date` and its `amount` as `after_amount`, both as received (`after=T0000104790&after_date=2026-11-20T17:55:02.000Z&after_amount=-123456789012.12345678`); the date orders read the date, the amount orders the amount, `id` breaking ties, and the row need not exist.",
  requestParams: { path: playerPath, query: transactionExportQuerySchema, header: sessionHeader },
  responses: readResponses(
    {
      description:
        "The transactions; `Content-Disposition: attachment` names a file; `X-Total-Count` the rows of the whole export. NDJSON: each line is one `TransactionExportLine` (the schema given is one line's), ended by a line feed.",
      headers: exportHeaders,
      content: {
        "text/csv": {
          schema: z
            .string()
            .meta({ description: "RFC 4180 CSV with a header row (none when resumed with `after`)." }),
          examples: {
            export: {
              summary: "format=csv (X-Total-Count: 2)",
              value:
                "player_id,id,date,event_type,event_name,event_note,amount,currency,payment_method,created_by,created_at,completed_at,status,updated_at\r\n" +
                "P000007,T0000104821,2026-11-20T18:04:11.000Z,deposit,Deposit,,250.5,EUR,Visa,System,2026-11-20T18:04:11.000Z,2026-11-20T18:04:12.000Z,completed,2026-11-20T18:04:12.000Z\r\n" +
                "P000007,T0000104790,2026-11-20T17:55:02.000Z,withdrawal,Withdrawal,,-123456789012.12345678,EUR,Bank transfer,System,2026-11-20T17:55:02.000Z,,pending,2026-11-20T17:55:02.000Z\r\n",
            },
          },
        },
        "application/x-ndjson": {
          // OpenAPI 3.1 has no schema for the items of a stream (3.2's itemSchema): the schema is one line's, as
          // NDJSON tooling reads it, and the description says so.
          schema: transactionExportLineSchema,
          examples: {
            resumed: {
              summary: "format=ndjson&after=T0000104821: a line of the rows after it",
              value: {
                player_id: "P000007",
                id: "T0000104790",
                date: "2026-11-20T17:55:02.000Z",
                event_type: "withdrawal",
                event_name: "Withdrawal",
                event_note: null,
                amount: -123456.125,
                currency: "EUR",
                payment_method: "Bank transfer",
                created_by: "System",
                created_at: "2026-11-20T17:55:02.000Z",
                completed_at: null,
                status: "pending",
                updated_at: "2026-11-20T17:55:02.000Z",
              },
            },
          },
        },
      },
    },
    "Invalid filter or format, an unknown parameter, or an `after` that is no transaction of this player; `errors` names each one.",
    { player: true, stream: true },
  ),
} satisfies ZodOpenApiOperationObject;

const getPlayerTransactionFacets = {
  operationId: "getPlayerTransactionFacets",
  tags: ["Players"],
  summary: "Get the filter values of a player's transactions",
  description:
    "An addition to the spec for the back-office filters: the event types (all of them, with counts), the event names and creators the player actually has, with counts, and the span of the player's transaction dates. Takes the list's filters: faceted counts, each facet counted under every filter but its own.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: readHeaders },
  responses: readResponses(
    ok("The player's filter values.", transactionFacetsSchema),
    "Invalid playerId or filter, or an unknown parameter; `errors` names each one.",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

const getPlayerTransactionTotals = {
  operationId: "getPlayerTransactionTotals",
  tags: ["Players"],
  summary: "Get the count and sum of a player's transactions under filters",
  description:
    "An addition to the spec for the totals row under the back office's transaction table: takes the list's filters and answers the number of matching transactions and, per currency, the exact signed sum of the money that moved. Only `completed` transactions moved money: a `pending` one has not yet, a `failed` or `cancelled` one never will, so `sum` leaves them out (as the summary, the monthly activity, the portfolio and the KPIs do) and `by_status` gives every status's count and sum beside it. Completed deposits, withdrawals, bets and wins are summed from the per-day statistics (whole UTC days) plus the partial days at a range's ends; other filters row by row.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: readHeaders },
  responses: readResponses(
    ok("The totals under the filters.", transactionTotalsSchema),
    "Invalid playerId or filter, or an unknown parameter; `errors` names each one.",
    { player: true },
  ),
} satisfies ZodOpenApiOperationObject;

export const transactionPaths = {
  "/players/{playerId}/transactions": { get: listPlayerTransactions },
  "/players/{playerId}/transactions/export": { get: exportPlayerTransactions },
  "/players/{playerId}/transaction-facets": { get: getPlayerTransactionFacets },
  "/players/{playerId}/transaction-totals": { get: getPlayerTransactionTotals },
} satisfies ZodOpenApiPathsObject;
