import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { SCOPES } from "@/lib/auth/scopes";
import {
  badRequest,
  commonErrors,
  ok,
  playerPath,
  rateLimitHeaders,
  requestIdHeader,
  requires,
  sessionHeader,
  unknownPlayer,
} from "@/lib/openapi/operation-parts";
import {
  transactionExportQuerySchema,
  transactionFacetsQuerySchema,
  transactionListQuerySchema,
  transactionListResponseSchema,
} from "@/lib/schemas/transaction";
import { transactionFacetsSchema } from "@/lib/schemas/transaction-facets";
import { transactionTotalsSchema } from "@/lib/schemas/transaction-totals";

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
  requestParams: { path: playerPath, query: transactionListQuerySchema, header: sessionHeader },
  responses: {
    "200": ok("A page of transactions with the exact total.", transactionListResponseSchema),
    "400": badRequest(
      "Invalid filter or paging parameter (also: a `cursor` this API did not issue, or `cursor` with a non-zero `offset`); `errors` names each one.",
    ),
    "404": unknownPlayer(),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

const EXPORT_ROW_EXAMPLE = {
  player_id: "P000007",
  id: "T000000123",
  date: "2026-11-20T12:00:00.000Z",
  event_type: "deposit",
  event_name: "card_deposit",
  event_note: null,
  amount: 1250.5,
  currency: "EUR",
  payment_method: "card",
  created_by: "player",
  created_at: "2026-11-20T12:00:00.000Z",
  completed_at: "2026-11-20T12:00:05.000Z",
  status: "completed",
};
const NDJSON_EXAMPLE = `${JSON.stringify(EXPORT_ROW_EXAMPLE)}\n`;
const CSV_EXAMPLE = `${Object.keys(EXPORT_ROW_EXAMPLE).join(",")}\r\n${Object.values(EXPORT_ROW_EXAMPLE)
  .map((v) => v ?? "")
  .join(",")}\r\n`;

const exportPlayerTransactions = {
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
        "text/csv": {
          schema: z.string().meta({ description: "RFC 4180 CSV with a header row." }),
          example: CSV_EXAMPLE,
        },
        "application/x-ndjson": {
          schema: z
            .string()
            .meta({ description: "One JSON transaction record (with `player_id`) per line." }),
          example: NDJSON_EXAMPLE,
        },
      },
    },
    "400": badRequest("Invalid filter or format, or an unknown parameter; `errors` names each one."),
    "404": unknownPlayer(),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

const getPlayerTransactionFacets = {
  operationId: "getPlayerTransactionFacets",
  tags: ["Players"],
  summary: "Get the filter values of a player's transactions",
  description:
    "An addition to the spec for the back-office filters: the event types (all of them, with counts), the event names and creators the player actually has, with counts, and the span of the player's transaction dates. Takes the list's filters: faceted counts, each facet counted under every filter but its own.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: sessionHeader },
  responses: {
    "200": ok("The player's filter values.", transactionFacetsSchema),
    "400": badRequest("Invalid playerId or filter, or an unknown parameter; `errors` names each one."),
    "404": unknownPlayer(),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

const getPlayerTransactionTotals = {
  operationId: "getPlayerTransactionTotals",
  tags: ["Players"],
  summary: "Get the count and sum of a player's transactions under filters",
  description:
    "An addition to the spec for the totals row under the back office's transaction table: takes the list's filters and answers the number of matching transactions and their exact signed sum per currency. Completed deposits, withdrawals, bets and wins are summed from the per-day statistics (whole UTC days) plus the partial days at a range's ends; other filters row by row.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: transactionFacetsQuerySchema, header: sessionHeader },
  responses: {
    "200": ok("The totals under the filters.", transactionTotalsSchema),
    "400": badRequest("Invalid playerId or filter, or an unknown parameter; `errors` names each one."),
    "404": unknownPlayer(),
    ...commonErrors,
  },
} satisfies ZodOpenApiOperationObject;

export const transactionPaths = {
  "/players/{playerId}/transactions": { get: listPlayerTransactions },
  "/players/{playerId}/transactions/export": { get: exportPlayerTransactions },
  "/players/{playerId}/transaction-facets": { get: getPlayerTransactionFacets },
  "/players/{playerId}/transaction-totals": { get: getPlayerTransactionTotals },
} satisfies ZodOpenApiPathsObject;
