import "server-only";
import type { EventType, TransactionFilters } from "@/features/transactions/schema/transaction";
import { getPrisma } from "@/platform/db/client";
import type { Prisma, PrismaClient } from "@/platform/db/generated/client";
import {
  type InstantRange,
  rangeFilter,
  rowFilters,
  STATUS_COUNT_SUMS,
  splitDays,
  statsCount,
  transactionWhere,
} from "./transaction-where.ts";

/** The number of matches of one combination of filter values. */
export interface ValueCount {
  eventType: EventType;
  eventName: string;
  createdBy: string;
  n: number;
}

export interface CountByFilterValuesOptions {
  playerId: string;
  filters: TransactionFilters;
  /** The filters' range (filterRange). */
  range: InstantRange;
}

const BY = ["eventType", "eventName", "createdBy"] as const;

/** Matches in a range counted row by row, per value combination. */
async function countRows(db: PrismaClient, where: Prisma.TransactionWhereInput): Promise<ValueCount[]> {
  const groups = await db.transaction.groupBy({ by: [...BY], where, _count: { _all: true } });
  return groups.map((g) => ({ ...pick(g), n: g._count._all }));
}

const pick = (g: { eventType: EventType; eventName: string; createdBy: string }) => ({
  eventType: g.eventType,
  eventName: g.eventName,
  createdBy: g.createdBy,
});

/**
 * A player's matches of the date range, status and transaction id filters, counted per (event type, event name,
 * creator): the value filters are left out so that faceted counts can apply any subset of them afterwards. As
 * countPlayerTransactions does it: whole UTC days from transaction_daily_stats (n, or completed_n for the
 * status), the partial days at the range's ends row by row; an id lookup counts its row directly.
 */
export async function countByFilterValues(
  options: CountByFilterValuesOptions,
  db: PrismaClient = getPrisma(),
): Promise<ValueCount[]> {
  const { playerId, filters, range } = options;
  const rowOnly = { status: filters.status, transaction_id: filters.transaction_id };
  const { whole, head, tail, hasWholeDay } = splitDays(range);
  if (filters.transaction_id || !hasWholeDay) {
    return countRows(db, transactionWhere(playerId, rowOnly, range));
  }
  const day = rangeFilter(whole);
  const parts: Promise<ValueCount[]>[] = [
    db.transactionDailyStat
      .groupBy({
        by: [...BY],
        where: { playerId, ...(day ? { day } : {}) },
        _sum: filters.status ? STATUS_COUNT_SUMS : { n: true },
      })
      .then((groups) => groups.map((g) => ({ ...pick(g), n: statsCount(filters, g._sum) }))),
  ];
  for (const part of [head, tail]) {
    if (part)
      parts.push(
        countRows(db, { playerId, ...rowFilters(rowOnly), date: { gte: part.from, lt: part.until } }),
      );
  }
  return (await Promise.all(parts)).flat();
}
