import { jsonResponse, readOnlyMethods, withApi } from "@/lib/http/api-handler";
import { notFound } from "@/lib/http/problem";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { listPlayerTransactions } from "@/lib/players/list-player-transactions";
import { playerIdSchema } from "@/lib/schemas/player";
import { TRANSACTION_LIST_ARRAY_PARAMS, transactionListQuerySchema } from "@/lib/schemas/transaction";

export const dynamic = "force-dynamic";

export const GET = withApi<{ playerId: string }>(async ({ params, url, audit }) => {
  const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
  const { limit, offset, cursor, ...filters } = parseQuery(
    transactionListQuerySchema,
    url.searchParams,
    TRANSACTION_LIST_ARRAY_PARAMS,
  );
  const page = await listPlayerTransactions(playerId, filters, { limit, offset, cursor });
  if (!page) throw notFound(`No player with id '${playerId}'.`);
  audit({ operation: "transactions", playerId });
  return jsonResponse({
    transactions: page.transactions,
    total: page.total,
    limit,
    offset,
    has_more: page.hasMore,
    next_cursor: page.nextCursor,
  });
});

export const { POST, PUT, PATCH, DELETE, OPTIONS } = readOnlyMethods();
