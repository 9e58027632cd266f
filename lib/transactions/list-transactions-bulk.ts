import "server-only";
import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient, type Transaction as TransactionRow } from "@/lib/db/generated/client";
import { toTransaction } from "@/lib/players/map-transaction";
import { type BulkKey, type BulkTransaction, encodeBulkCursor } from "@/lib/schemas/bulk-transaction";

/** The columns of a transaction row under the model's field names, so the list's own mapper reads them. */
const COLUMNS = Prisma.raw(
  `t.id, t.player_id AS "playerId", t.date, t.event_type AS "eventType", t.event_name AS "eventName",
   t.event_note AS "eventNote", t.amount, t.currency, t.payment_method AS "paymentMethod",
   t.created_by AS "createdBy", t.created_at AS "createdAt", t.completed_at AS "completedAt", t.status,
   t.version, t.updated_at AS "updatedAt"`,
);

export interface BulkPage {
  transactions: BulkTransaction[];
  hasMore: boolean;
  /** After this page's last row; null when nothing follows. */
  nextCursor: string | null;
  /** The distinct players of the page's rows, in first-seen order (the audit record names them). */
  playerIds: string[];
}

export interface ListTransactionsBulkOptions {
  /** Keep the transactions whose updated_at is at or after this instant. */
  since?: Date | undefined;
  /** Continue after this row. */
  after?: BulkKey | undefined;
  limit: number;
}

const toBulk = (row: TransactionRow): BulkTransaction => ({ ...toTransaction(row), player_id: row.playerId });

function playersOf(rows: readonly TransactionRow[]): string[] {
  return [...new Set(rows.map((r) => r.playerId))];
}

/**
 * One page of every player's transactions in (updated_at, id) order, ascending, after a key. The row comparison
 * `(updated_at, id) > (key)` is an index condition on transactions_updated_at_id_idx, so a page costs the same at
 * any depth (an index range scan of limit + 1 entries, the extra one telling whether more follow).
 */
export async function listTransactionsBulk(
  options: ListTransactionsBulkOptions,
  db: PrismaClient = getPrisma(),
): Promise<BulkPage> {
  const { since, after, limit } = options;
  const where: Prisma.Sql[] = [];
  if (since) where.push(Prisma.sql`t.updated_at >= ${since}::timestamptz`);
  if (after) where.push(Prisma.sql`(t.updated_at, t.id) > (${after.updatedAt}::timestamptz, ${after.id})`);
  const whereSql = where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;
  const rows = await db.$queryRaw<TransactionRow[]>(
    Prisma.sql`SELECT ${COLUMNS} FROM transactions t ${whereSql} ORDER BY t.updated_at, t.id LIMIT ${limit + 1}`,
  );
  const hasMore = rows.length > limit;
  const shown = hasMore ? rows.slice(0, limit) : rows;
  const last = shown.at(-1);
  return {
    transactions: shown.map(toBulk),
    hasMore,
    nextCursor: hasMore && last ? encodeBulkCursor({ updatedAt: last.updatedAt, id: last.id }) : null,
    playerIds: playersOf(shown),
  };
}

/** The named transactions of any players that exist, in (updated_at, id) order; unknown ids are left out. */
export async function getTransactionsByIds(
  options: { ids: readonly string[] },
  db: PrismaClient = getPrisma(),
): Promise<BulkPage> {
  const ids = [...new Set(options.ids)];
  const rows = await db.$queryRaw<TransactionRow[]>(
    Prisma.sql`SELECT ${COLUMNS} FROM transactions t WHERE t.id = ANY(${ids}::text[]) ORDER BY t.updated_at, t.id`,
  );
  return { transactions: rows.map(toBulk), hasMore: false, nextCursor: null, playerIds: playersOf(rows) };
}
