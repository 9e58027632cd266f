import "server-only";
import type { TransactionKey } from "@/features/transactions/schema/transaction-cursor";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";

export interface FindTransactionPositionOptions {
  playerId: string;
  /** The transaction's exact id (case-sensitive). */
  transactionId: string;
}

/**
 * Where a transaction of the player stands in every export order: its date, id and amount's size, the key the
 * export continues after (`after=`). The size is written as the export's own keys write it (trim_scale, no sign),
 * so a resumed export starts exactly where a batch boundary would have. null when the player has no such
 * transaction (the filters do not matter: a row that no longer matches them still marks a position).
 */
export async function findTransactionPosition(
  options: FindTransactionPositionOptions,
  db: PrismaClient = getPrisma(),
): Promise<TransactionKey | null> {
  const { playerId, transactionId } = options;
  const rows = await db.$queryRaw<{ id: string; date_ms: string; size: string }[]>`
    SELECT id, (extract(epoch FROM date) * 1000)::bigint::text AS date_ms, trim_scale(abs(amount))::text AS size
    FROM transactions
    WHERE player_id = ${playerId} AND id = ${transactionId}`;
  const row = rows[0];
  return row ? { date: new Date(Number(row.date_ms)), id: row.id, amount: row.size } : null;
}
