import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { Transaction, TransactionFilters } from "@/lib/schemas/transaction";
import { toTransaction } from "./map-transaction.ts";
import { afterKey, filterRange, LIST_ORDER, transactionWhere } from "./transaction-where.ts";

/** Small first batch so the first bytes leave at once; larger ones after that for throughput. */
export const EXPORT_BATCH = { first: 200, rest: 2_000 } as const;

/**
 * All of a player's transactions matching the filters, in list order, as batches read by keyset (each batch
 * continues after the previous one's last row), so memory stays constant however many rows there are.
 * null when the player does not exist. Each batch is its own statement: rows written while an export runs may
 * or may not appear, but none is repeated or skipped among those that existed throughout.
 */
export async function streamPlayerTransactions(
  playerId: string,
  filters: TransactionFilters,
  db: PrismaClient = getPrisma(),
  batch: { first: number; rest: number } = EXPORT_BATCH,
): Promise<AsyncGenerator<Transaction[]> | null> {
  const player = await db.player.findUnique({ where: { id: playerId }, select: { id: true } });
  if (!player) return null;
  const range = filterRange(filters);
  return (async function* () {
    if (!range) return;
    const where = transactionWhere(playerId, filters, range);
    let size = batch.first;
    let key: { date: Date; id: string } | undefined;
    for (;;) {
      const rows = await db.transaction.findMany({
        where: key ? afterKey(where, key) : where,
        orderBy: LIST_ORDER,
        take: size,
      });
      if (rows.length > 0) yield rows.map(toTransaction);
      const last = rows.at(-1);
      if (!last || rows.length < size) return;
      key = { date: last.date, id: last.id };
      size = batch.rest;
    }
  })();
}
