import { listPlayerTransactions } from "@/features/transactions/data/list-player-transactions";
import { listTransactionsUpdatedSince } from "@/features/transactions/data/list-transactions-updated-since";
import { transactionListQuerySchema } from "@/features/transactions/schema/transaction";
import { cursorNextPage, offsetNextPage } from "@/platform/http/next-link";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/** GET /players/{playerId}/transactions: one page of the player's transactions under the filters. */
export const playerTransactionsRead = defineRead({
  params: { playerId: playerIdSchema },
  query: transactionListQuerySchema,
  run: async function playerTransactionsRead({ params: { playerId }, query, db }) {
    const { limit, offset, cursor, sort, updated_since, ...filters } = query;
    const paging = { playerId, filters, limit, offset, cursor: cursor?.key, sort };
    const page = updated_since
      ? await listTransactionsUpdatedSince({ ...paging, since: updated_since }, db)
      : await listPlayerTransactions(paging, db);
    return {
      body: {
        transactions: page.transactions,
        total: page.total,
        limit,
        offset,
        has_more: page.hasMore,
        next_cursor: page.nextCursor,
      },
      audit: { operation: "transactions", playerId },
    };
  },
  // The next page is paged as this one was: by cursor, or by offset.
  next: (body, query) => (query.cursor ? cursorNextPage(body) : offsetNextPage(body)),
});
