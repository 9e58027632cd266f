import { readRoute } from "@/lib/http/api-handler";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { jsonResponse } from "@/lib/http/responses";
import { listPlayerTransactions } from "@/lib/players/list-player-transactions";
import { playerIdSchema } from "@/lib/schemas/player";
import { transactionListQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function playerTransactionsRoute({ params, url, audit }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    const { limit, offset, cursor, sort, ...filters } = parseQuery(
      transactionListQuerySchema,
      url.searchParams,
    );
    const page = await listPlayerTransactions({
      playerId,
      filters,
      limit,
      offset,
      cursor: cursor?.key,
      sort,
    });
    audit({ operation: "transactions", playerId });
    return jsonResponse({
      transactions: page.transactions,
      total: page.total,
      limit,
      offset,
      has_more: page.hasMore,
      next_cursor: page.nextCursor,
    });
  },
);
