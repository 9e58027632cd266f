import "server-only";
import type { TransactionFilters } from "@/features/transactions/schema/transaction";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import {
  filterRange,
  STATUS_COUNT_SUMS,
  splitDays,
  statsCount,
  statsWhere,
  transactionWhere,
} from "./transaction-where.ts";

export interface CountPlayerTransactionsOptions {
  playerId: string;
  filters: TransactionFilters;
}

/**
 * The exact number of a player's transactions matching the filters, at a cost that does not grow with the
 * player's history: whole UTC days inside the date range are summed from transaction_daily_stats (one row per
 * day and filter value combination, kept current by triggers), and only the partial days at the range's ends
 * are counted row by row. The stats hold the completed count beside the count, so a status filter stays exact;
 * a transaction id lookup matches at most one row, counted directly through the primary key.
 */
export async function countPlayerTransactions(
  options: CountPlayerTransactionsOptions,
  db: PrismaClient = getPrisma(),
): Promise<number> {
  const { playerId, filters } = options;
  const range = filterRange(filters);
  if (!range) return 0;
  const { whole, head, tail, hasWholeDay } = splitDays(range);
  if (filters.transaction_id || !hasWholeDay) {
    // No whole day inside the range: it spans at most two partial days, cheap to count directly.
    return db.transaction.count({ where: transactionWhere(playerId, filters, range) });
  }
  const parts: Promise<number>[] = [
    db.transactionDailyStat
      .aggregate({
        where: statsWhere(playerId, filters, whole),
        _sum: STATUS_COUNT_SUMS,
      })
      .then((r) => statsCount(filters, r._sum)),
  ];
  for (const part of [head, tail]) {
    if (part) parts.push(db.transaction.count({ where: transactionWhere(playerId, filters, part) }));
  }
  return (await Promise.all(parts)).reduce((a, b) => a + b, 0);
}
