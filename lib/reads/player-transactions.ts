import { routeRead } from "@/lib/db/read-router";
import { listPlayerTransactions } from "@/lib/players/list-player-transactions";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionListQuerySchema } from "@/lib/schemas/transaction";
import { defineRead } from "./read-definition.ts";

/** GET /players/{playerId}/transactions: one page of the player's transactions under the filters. */
export const playerTransactionsRead = defineRead({
  params: { playerId: playerIdSchema },
  query: transactionListQuerySchema,
  run: async function playerTransactionsRead({ params: { playerId }, query }) {
    const { limit, offset, cursor, sort, ...filters } = query;
    const page = await routeRead((db) =>
      listPlayerTransactions({ playerId, filters, limit, offset, cursor: cursor?.key, sort }, db),
    );
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
});
