import "server-only";
import type { TransactionFilters } from "@/features/transactions/schema/transaction";
import type { TransactionKey, TransactionSort } from "@/features/transactions/schema/transaction-cursor";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { type TransactionPage, toTransactionPage } from "./list-player-transactions.ts";
import { afterKey, filterRange, listOrder, transactionWhere } from "./transaction-where.ts";

export interface ListTransactionsUpdatedSinceOptions {
  playerId: string;
  filters: TransactionFilters;
  /** Keep the transactions whose updated_at is at or after this instant. */
  since: Date;
  limit: number;
  offset: number;
  cursor?: TransactionKey | undefined;
  /** A date order (the schema refuses the amount orders with updated_since); default date_desc. */
  sort?: TransactionSort | undefined;
}

/**
 * One page of a player's transactions changed since an instant, under the list's other filters, in a date order,
 * with the exact count. The daily counts cannot tell update times, so the total is a count(*) over the player's
 * (player_id, updated_at) index range: a syncer's re-read is small by nature. Throws a not-found AppError when
 * the player does not exist.
 */
export async function listTransactionsUpdatedSince(
  options: ListTransactionsUpdatedSinceOptions,
  db: PrismaClient = getPrisma(),
): Promise<TransactionPage> {
  const { playerId, filters, since, limit, offset, cursor } = options;
  const sort = options.sort ?? "date_desc";
  const range = filterRange(filters);
  const player = await db.player.findUnique({ where: { id: playerId }, select: { id: true } });
  if (!player) throw playerNotFound(playerId);
  if (!range) return { transactions: [], total: 0, hasMore: false, nextCursor: null };
  const where = { AND: [transactionWhere(playerId, filters, range), { updatedAt: { gte: since } }] };
  const [rows, total] = await Promise.all([
    db.transaction.findMany({
      where: cursor ? afterKey(where, cursor, sort) : where,
      orderBy: listOrder(sort),
      skip: offset,
      take: limit + 1,
    }),
    db.transaction.count({ where }),
  ]);
  return toTransactionPage(rows, limit, total, sort);
}
