import { getPrisma } from "@/lib/db/client";
import type { Prisma, PrismaClient, Transaction as TransactionRow } from "@/lib/db/generated/client";
import type { Transaction, TransactionFilters } from "@/lib/schemas/transaction";
import { encodeTransactionCursor, type TransactionKey } from "@/lib/schemas/transaction-cursor";
import { countPlayerTransactions } from "./count-player-transactions.ts";
import { toTransaction } from "./map-transaction.ts";
import { skipWholeDays } from "./skip-whole-days.ts";
import {
  afterKey,
  filterRange,
  type InstantRange,
  LIST_ORDER,
  transactionWhere,
} from "./transaction-where.ts";

/**
 * From this offset on, the whole days the offset covers are skipped by their counts (skipWholeDays), and the
 * page is found by its ids first (an index-only scan over the entries still skipped) and then read: measured on
 * a 1.25M-row player at offset 100,000, 12 ms for the ids-first read instead of 37 ms for reading every row the
 * scan steps over; skipping whole days leaves at most a day's worth of entries to step over at any depth.
 */
const DEEP_OFFSET = 1_000;

/** The offset page's query: after the whole days skipped, when that applies. */
async function offsetPage(
  db: PrismaClient,
  playerId: string,
  filters: TransactionFilters,
  range: InstantRange,
  offset: number,
): Promise<{ where: Prisma.TransactionWhereInput; skip: number }> {
  if (offset >= DEEP_OFFSET) {
    const days = await skipWholeDays(playerId, filters, range, offset, db);
    if (days) {
      return {
        where: transactionWhere(playerId, filters, { from: range.from, until: days.until }),
        skip: offset - days.skipped,
      };
    }
  }
  return { where: transactionWhere(playerId, filters, range), skip: offset };
}

async function findPage(
  db: PrismaClient,
  where: Prisma.TransactionWhereInput,
  skip: number,
  take: number,
): Promise<TransactionRow[]> {
  if (skip < DEEP_OFFSET) return db.transaction.findMany({ where, orderBy: LIST_ORDER, skip, take });
  const keys = await db.transaction.findMany({
    where,
    orderBy: LIST_ORDER,
    skip,
    take,
    select: { id: true },
  });
  if (keys.length === 0) return [];
  return db.transaction.findMany({ where: { id: { in: keys.map((k) => k.id) } }, orderBy: LIST_ORDER });
}

export interface TransactionPage {
  transactions: Transaction[];
  /** Exact count of all matches (not only those after a cursor). */
  total: number;
  hasMore: boolean;
  /** Continues after this page's last row; null when nothing follows. */
  nextCursor: string | null;
}

/**
 * One page of a player's transactions, newest first (date DESC, id DESC: a total order, so pages never overlap
 * or skip), by offset or after a keyset cursor, with the exact count of all matches. null when the player does
 * not exist.
 */
export async function listPlayerTransactions(
  playerId: string,
  filters: TransactionFilters,
  page: { limit: number; offset: number; cursor?: TransactionKey | undefined },
  db: PrismaClient = getPrisma(),
): Promise<TransactionPage | null> {
  const range = filterRange(filters);
  const readPage = async (): Promise<TransactionRow[]> => {
    if (!range) return [];
    // One row more than the page tells whether anything follows, without trusting the count.
    if (page.cursor) {
      const where = afterKey(transactionWhere(playerId, filters, range), page.cursor);
      return findPage(db, where, page.offset, page.limit + 1);
    }
    const { where, skip } = await offsetPage(db, playerId, filters, range, page.offset);
    return findPage(db, where, skip, page.limit + 1);
  };
  const [player, rows, total] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    readPage(),
    countPlayerTransactions(playerId, filters, db),
  ]);
  if (!player) return null;
  const hasMore = rows.length > page.limit;
  const shown = hasMore ? rows.slice(0, page.limit) : rows;
  const last = shown.at(-1);
  return {
    transactions: shown.map(toTransaction),
    total,
    hasMore,
    nextCursor: hasMore && last ? encodeTransactionCursor({ date: last.date, id: last.id }) : null,
  };
}
