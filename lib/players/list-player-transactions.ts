import { getPrisma } from "@/lib/db/client";
import type { Prisma, PrismaClient, Transaction as TransactionRow } from "@/lib/db/generated/client";
import type { Transaction, TransactionFilters } from "@/lib/schemas/transaction";
import { encodeTransactionCursor, type TransactionKey } from "@/lib/schemas/transaction-cursor";
import { countPlayerTransactions } from "./count-player-transactions.ts";
import { toTransaction } from "./map-transaction.ts";
import { afterKey, filterRange, LIST_ORDER, transactionWhere } from "./transaction-where.ts";

/**
 * From this offset on, a page is found by its ids first (an index-only scan over the skipped entries) and
 * then read: measured on a 1.25M-row player at offset 100,000, 12 ms instead of 37 ms for reading the rows
 * the scan steps over.
 */
const DEEP_OFFSET = 1_000;

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
  const where = range && transactionWhere(playerId, filters, range);
  const [player, rows, total] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    // One row more than the page tells whether anything follows, without trusting the count.
    where
      ? findPage(db, page.cursor ? afterKey(where, page.cursor) : where, page.offset, page.limit + 1)
      : [],
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
