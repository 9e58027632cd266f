import "server-only";
import { narrowToPending } from "@/features/portfolio/server";
import type { Transaction, TransactionFilters } from "@/features/transactions/schema/transaction";
import {
  encodeSortedCursor,
  type TransactionKey,
  type TransactionSort,
} from "@/features/transactions/schema/transaction-cursor";
import { getPrisma } from "@/platform/db/client";
import {
  Prisma,
  type PrismaClient,
  type Transaction as TransactionRow,
} from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { countPlayerTransactions } from "./count-player-transactions.ts";
import { toTransaction } from "./map-transaction.ts";
import { skipWholeDays } from "./skip-whole-days.ts";
import {
  afterKey,
  filterRange,
  type InstantRange,
  listOrder,
  sortColumn,
  transactionWhere,
} from "./transaction-where.ts";
import { afterKeySql, orderBySql, transactionWhereSql } from "./transaction-where-sql.ts";

/**
 * From this offset on, the whole days the offset covers are skipped by their counts (skipWholeDays), and the
 * page is found by its ids first (an index-only scan over the entries still skipped) and then read, a third of
 * the time of reading every row stepped over (docs/performance.md); at most a day's entries are stepped over.
 * The amount orders have no per-day counts to skip by: their deep pages are the ids-first read alone, whose cost
 * grows with the offset (use a cursor there).
 */
const DEEP_OFFSET = 1_000;

/** The offset page's query: after the whole days skipped, when the order is by date and that applies. */
async function offsetPage(
  db: PrismaClient,
  playerId: string,
  filters: TransactionFilters,
  range: InstantRange,
  offset: number,
  sort: TransactionSort,
): Promise<{ where: Prisma.TransactionWhereInput; skip: number }> {
  const [column, direction] = sortColumn(sort);
  if (offset >= DEEP_OFFSET && column === "date") {
    const days = await skipWholeDays({ playerId, filters, range, offset, direction }, db);
    if (days) {
      return { where: transactionWhere(playerId, filters, days.range), skip: offset - days.skipped };
    }
  }
  return { where: transactionWhere(playerId, filters, range), skip: offset };
}

async function findPage(
  db: PrismaClient,
  where: Prisma.TransactionWhereInput,
  order: Prisma.TransactionOrderByWithRelationInput[],
  skip: number,
  take: number,
): Promise<TransactionRow[]> {
  if (skip < DEEP_OFFSET) return db.transaction.findMany({ where, orderBy: order, skip, take });
  const keys = await db.transaction.findMany({ where, orderBy: order, skip, take, select: { id: true } });
  if (keys.length === 0) return [];
  return db.transaction.findMany({ where: { id: { in: keys.map((k) => k.id) } }, orderBy: order });
}

/**
 * A page in an amount order, by size (`abs(amount)`, id breaking ties): an expression Prisma cannot order by, so
 * the page's ids come from SQL (an index range scan of the abs-amount indexes, starting at the cursor's key) and
 * its rows are then read by id and put back in that order.
 */
async function findBySizePage(
  db: PrismaClient,
  where: Prisma.Sql,
  sort: TransactionSort,
  skip: number,
  take: number,
): Promise<TransactionRow[]> {
  const keys = await db.$queryRaw<{ id: string }[]>(
    Prisma.sql`SELECT t.id FROM transactions t WHERE ${where} ORDER BY ${orderBySql(sort)} LIMIT ${take} OFFSET ${skip}`,
  );
  if (keys.length === 0) return [];
  const rows = await db.transaction.findMany({ where: { id: { in: keys.map((k) => k.id) } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  return keys.flatMap((k) => byId.get(k.id) ?? []);
}

/** The key of a row in an order: what a cursor after it carries (for the amount orders, the amount's size). */
function keyOf(row: TransactionRow, sort: TransactionSort): TransactionKey {
  return sortColumn(sort)[0] === "amount"
    ? { date: row.date, id: row.id, amount: ExactNumber.from(row.amount).digits.replace(/^-/, "") }
    : { date: row.date, id: row.id };
}

export interface TransactionPage {
  transactions: Transaction[];
  /** Exact count of all matches (not only those after a cursor). */
  total: number;
  hasMore: boolean;
  /** Continues after this page's last row; null when nothing follows. */
  nextCursor: string | null;
}

export interface ListPlayerTransactionsOptions {
  playerId: string;
  filters: TransactionFilters;
  limit: number;
  offset: number;
  /** Continue after this row (of the same order); `offset` then counts from it. */
  cursor?: TransactionKey | undefined;
  /** Default date_desc. */
  sort?: TransactionSort | undefined;
}

/**
 * One page of a player's transactions in the order `sort` (default date_desc: newest first; `id` breaks ties in
 * the same direction, a total order, so pages never overlap or skip), by offset or after a keyset cursor of the
 * same order, with the exact count of all matches. Throws a not-found AppError when the player does not exist.
 */
export async function listPlayerTransactions(
  options: ListPlayerTransactionsOptions,
  db: PrismaClient = getPrisma(),
): Promise<TransactionPage> {
  const { playerId, filters, ...page } = options;
  const sort = page.sort ?? "date_desc";
  const order = listOrder(sort);
  const readPage = async (): Promise<TransactionRow[]> => {
    const filtered = filterRange(filters);
    const range = filtered && (await narrowToPending({ playerId, filters, range: filtered }, db));
    if (!range) return [];
    // One row more than the page tells whether anything follows, without trusting the count.
    if (sortColumn(sort)[0] === "amount") {
      const where = [transactionWhereSql(playerId, filters, range)];
      if (page.cursor) where.push(afterKeySql(page.cursor, sort));
      return findBySizePage(db, Prisma.join(where, " AND "), sort, page.offset, page.limit + 1);
    }
    if (page.cursor) {
      const where = afterKey(transactionWhere(playerId, filters, range), page.cursor, sort);
      return findPage(db, where, order, page.offset, page.limit + 1);
    }
    const { where, skip } = await offsetPage(db, playerId, filters, range, page.offset, sort);
    return findPage(db, where, order, skip, page.limit + 1);
  };
  const [player, rows, total] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    readPage(),
    countPlayerTransactions({ playerId, filters }, db),
  ]);
  if (!player) throw playerNotFound(playerId);
  return toTransactionPage(rows, page.limit, total, sort);
}

/** A page from its rows read one past `limit` (whether anything follows), with the cursor after its last row. */
export function toTransactionPage(
  rows: TransactionRow[],
  limit: number,
  total: number,
  sort: TransactionSort,
): TransactionPage {
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return {
    transactions: shown.map(toTransaction),
    total,
    hasMore,
    nextCursor: hasMore && last ? encodeSortedCursor({ sort, key: keyOf(last, sort) }) : null,
  };
}
