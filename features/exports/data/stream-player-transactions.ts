import "server-only";
import { narrowToPending } from "@/features/portfolio/server";
import type {
  EventType,
  Transaction,
  TransactionFilters,
  TransactionKey,
  TransactionSort,
  TransactionStatus,
} from "@/features/transactions";
import {
  afterKeySql,
  filterRange,
  type InstantRange,
  orderBySql,
  transactionWhereSql,
} from "@/features/transactions";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { ExactNumber } from "@/platform/schemas/exact-number";

/** Small first batch so the first bytes leave at once; larger ones after that for throughput. */
export const EXPORT_BATCH = { first: 200, rest: 5_000 } as const;

/** The API's instant format (UTC, milliseconds, Z), written by PostgreSQL. */
const iso = (column: string) =>
  Prisma.raw(`to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`);

/**
 * The export reads every matching row, so it reads them as text formatted by PostgreSQL: Prisma's typed rows
 * (Decimal, Date) cost twice the query's time (docs/performance.md).
 * The filters mean exactly what transactionWhere says (the tests compare the export with the paged list).
 */
function batchQuery(
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
  order: { sort: TransactionSort; after: TransactionKey | undefined },
  limit: number,
): Prisma.Sql {
  const where = [transactionWhereSql(playerId, f, range)];
  if (order.after) where.push(afterKeySql(order.after, order.sort));
  return Prisma.sql`
    SELECT id, ${iso("date")} AS date, event_type::text AS event_type, event_name, event_note,
           trim_scale(amount)::text AS amount, currency, payment_method, created_by,
           ${iso("created_at")} AS created_at, ${iso("completed_at")} AS completed_at, status::text AS status,
           ${iso("updated_at")} AS updated_at, (extract(epoch FROM date) * 1000)::bigint::text AS date_ms
    FROM transactions t
    WHERE ${Prisma.join(where, " AND ")}
    -- Qualified (t.): a bare "date" or "amount" here would name the formatted text column above, and sorting by
    -- it reads every row of the player (no index gives that order).
    ORDER BY ${orderBySql(order.sort)}
    LIMIT ${limit}`;
}

export interface StreamPlayerTransactionsOptions {
  playerId: string;
  filters: TransactionFilters;
  /** Default date_desc, as the list. */
  sort?: TransactionSort | undefined;
  /** Start after this row (findTransactionPosition): a resumed export. */
  after?: TransactionKey | undefined;
  /** Rows per batch: the first, then every other; default EXPORT_BATCH. */
  batch?: { first: number; rest: number } | undefined;
}

type TextRow = Omit<Transaction, "amount" | "event_type" | "status"> & {
  amount: string;
  event_type: string;
  status: string;
  date_ms: string;
};

/**
 * All of a player's transactions matching the filters, in the order `sort` (default date_desc, as the list), as
 * batches read by keyset (each batch
 * continues after the previous one's last row), so memory stays constant however many rows there are.
 * With `after`, the rows that follow that key in the order (resuming an export).
 * Throws a not-found AppError when the player does not exist. Each batch is its own statement: rows written while an export runs may
 * or may not appear, but none is repeated or skipped among those that existed throughout.
 */
export async function streamPlayerTransactions(
  options: StreamPlayerTransactionsOptions,
  db: PrismaClient = getPrisma(),
): Promise<AsyncGenerator<Transaction[]>> {
  const { playerId, filters, sort = "date_desc", after, batch = EXPORT_BATCH } = options;
  const player = await db.player.findUnique({ where: { id: playerId }, select: { id: true } });
  if (!player) throw playerNotFound(playerId);
  const filtered = filterRange(filters);
  const range = filtered && (await narrowToPending({ playerId, filters, range: filtered }, db));
  return (async function* () {
    if (!range) return;
    let size = batch.first;
    let key: TransactionKey | undefined = after;
    for (;;) {
      const rows = await db.$queryRaw<TextRow[]>(
        batchQuery(playerId, filters, range, { sort, after: key }, size),
      );
      if (rows.length > 0) {
        // Spelled out: rest and spread per row cost more than the formatting that follows.
        yield rows.map((t) => ({
          id: t.id,
          date: t.date,
          event_type: t.event_type as EventType,
          event_name: t.event_name,
          event_note: t.event_note,
          amount: new ExactNumber(t.amount),
          currency: t.currency,
          payment_method: t.payment_method,
          created_by: t.created_by,
          created_at: t.created_at,
          completed_at: t.completed_at,
          status: t.status as TransactionStatus,
          updated_at: t.updated_at,
        }));
      }
      const last = rows.at(-1);
      if (!last || rows.length < size) return;
      // The amount orders sort by size: the key carries the size (an amount's text without its sign).
      key = { date: new Date(Number(last.date_ms)), id: last.id, amount: last.amount.replace(/^-/, "") };
      size = batch.rest;
    }
  })();
}
