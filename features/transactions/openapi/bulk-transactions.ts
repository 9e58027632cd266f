import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  bulkTransactionsQuerySchema,
  bulkTransactionsResponseSchema,
} from "@/features/transactions/schema/bulk-transaction";
import { SCOPES } from "@/platform/auth/scopes";
import { ok, paged, readHeaders, readResponses, requires } from "@/platform/openapi/operation-parts";

/* Every player's transactions for a machine client's copy (docs/integrations.md, "Copying every transaction"). */

const pageExample = {
  transactions: [
    {
      id: "T0000004711",
      player_id: "P000007",
      date: "2026-11-26T05:00:00.000Z",
      event_type: "deposit",
      event_name: "Card Deposit",
      event_note: null,
      amount: 250.5,
      currency: "EUR",
      payment_method: "Visa",
      created_by: "System",
      created_at: "2026-11-26T05:00:00.000Z",
      completed_at: "2026-11-26T05:00:01.250Z",
      status: "completed",
      updated_at: "2026-11-26T05:00:01.250Z",
    },
  ],
  has_more: true,
  next_cursor: "dXBkYXRlZH4xNzY0MTMzMjAxMjUwflQwMDAwMDA0NzEx",
};

const listTransactions = {
  operationId: "listTransactions",
  tags: ["Changes"],
  security: requires(SCOPES.transactionsBulk),
  summary: "Copy every player's transactions (bulk read)",
  description:
    "An addition to the spec for machine clients that keep a copy of the ledger: every player's transactions in (`updated_at`, `id`) order, ascending, keyset-paged (`limit` up to 1,000; pass each page's `next_cursor` as `cursor`; a page costs the same at any depth), optionally from `updated_since` on. Rows are a player's transaction list rows plus `player_id`, money exact as everywhere (`amount` is a JSON number with every digit; read it with a lossless parser, docs/integrations.md). Ties of `updated_at` are broken by `id`, so pages never overlap or skip. A row updated while a client pages gets a new `updated_at` and moves to the end: it is read again there (its newer state), never lost; keep the last `next_cursor` and read from it later to get what changed since. Or name up to 100 transactions of any players with `ids` (unknown ids are simply absent); `ids` cannot be combined with `updated_since`, `cursor` or `limit` (a 400 naming each). Needs `transactions:bulk` (admins; a machine client whose token's `scope` grants it; never VIP managers or support agents). No contact data is in a transaction, so nothing is masked. Each page is recorded in the audit trail as `transactions_bulk`, with the players whose transactions it returned, and counts against the caller's request quota (RATE_LIMITS `client:<id>`).",
  requestParams: { query: bulkTransactionsQuerySchema, header: readHeaders },
  responses: {
    ...readResponses(
      paged(
        ok(
          "A page of transactions after `cursor` (or the named ones). While `has_more`, `Link` names the next page (`cursor` = `next_cursor`, the other parameters kept).",
          bulkTransactionsResponseSchema,
          pageExample,
        ),
      ),
      "Invalid `updated_since`, `cursor` (not one this read issued: garbled, or a cursor of another order such as a player's list), `limit` or `ids` (more than 100 distinct ids), or `ids` combined with `updated_since`, `cursor` or `limit`.",
    ),
  },
} satisfies ZodOpenApiOperationObject;

export const bulkTransactionPaths = {
  "/transactions": { get: listTransactions },
} satisfies ZodOpenApiPathsObject;
