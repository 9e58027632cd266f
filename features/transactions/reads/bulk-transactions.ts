import {
  getTransactionsByIds,
  listTransactionsBulk,
} from "@/features/transactions/data/list-transactions-bulk";
import { bulkTransactionsQuerySchema, MAX_BULK_LIMIT } from "@/features/transactions/schema/bulk-transaction";
import { SCOPES } from "@/platform/auth/scopes";
import { cursorNextPage } from "@/platform/http/next-link";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/**
 * GET /transactions: every player's transactions for a machine client's copy, keyset-paged in (updated_at, id)
 * order, or up to 100 named transactions across players (`ids`). Needs `transactions:bulk` (admins, and machine
 * clients granted it in their token's `scope`). A transaction row holds no contact data, so nothing is masked.
 * Audited per page as `transactions_bulk`, with the players whose transactions the page returned.
 */
export const bulkTransactionsRead = defineRead({
  scope: SCOPES.transactionsBulk,
  params: {},
  query: bulkTransactionsQuerySchema,
  run: async function bulkTransactionsRead({ query, db }) {
    const page = query.ids
      ? await getTransactionsByIds({ ids: query.ids }, db)
      : await listTransactionsBulk(
          { since: query.updated_since, after: query.cursor, limit: query.limit ?? MAX_BULK_LIMIT },
          db,
        );
    return {
      body: page.body,
      audit: { operation: "transactions_bulk", playerId: null, resultPlayerIds: page.playerIds },
    };
  },
  next: (body) => cursorNextPage(body),
});
