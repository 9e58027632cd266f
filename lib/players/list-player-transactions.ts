import { getPrisma } from "@/lib/db/client";
import type { Prisma, PrismaClient } from "@/lib/db/generated/client";
import type { Transaction, TransactionFilters } from "@/lib/schemas/transaction";
import { toTransaction } from "./map-transaction.ts";

export interface TransactionPage {
  transactions: Transaction[];
  total: number;
}

/** Filters → WHERE: values of one filter are ORed, filters are ANDed, date bounds inclusive. */
export function transactionWhere(playerId: string, f: TransactionFilters): Prisma.TransactionWhereInput {
  const date: Prisma.DateTimeFilter = {};
  if (f.from_date) date.gte = f.from_date.at;
  if (f.to_date) {
    if (f.to_date.exclusive) date.lt = f.to_date.at;
    else date.lte = f.to_date.at;
  }
  return {
    playerId,
    ...(f.event_type ? { eventType: { in: f.event_type } } : {}),
    ...(f.event_name ? { eventName: { in: f.event_name } } : {}),
    ...(f.created_by ? { createdBy: f.created_by } : {}),
    ...(f.from_date || f.to_date ? { date } : {}),
  };
}

/**
 * One page of a player's transactions, newest first (date DESC, id DESC: a total order, so pages
 * never overlap or skip), with the exact count of all matches. null when the player does not exist.
 */
export async function listPlayerTransactions(
  playerId: string,
  filters: TransactionFilters,
  page: { limit: number; offset: number },
  db: PrismaClient = getPrisma(),
): Promise<TransactionPage | null> {
  const where = transactionWhere(playerId, filters);
  const [player, rows, total] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    db.transaction.findMany({
      where,
      orderBy: [{ date: "desc" }, { id: "desc" }],
      skip: page.offset,
      take: page.limit,
    }),
    db.transaction.count({ where }),
  ]);
  if (!player) return null;
  return { transactions: rows.map(toTransaction), total };
}
