import "server-only";
import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import { playerNotFound } from "@/lib/errors";
import { fromUnits, toUnits } from "@/lib/format/exact-decimal";
import { ExactNumber } from "@/lib/schemas/exact-number";
import { EVENT_TYPES, type EventType, type TransactionFilters } from "@/lib/schemas/transaction";
import type { TransactionTotals } from "@/lib/schemas/transaction-totals";
import { filterRange, type InstantRange, splitDays, statsWhere } from "./transaction-where.ts";
import { transactionWhereSql } from "./transaction-where-sql.ts";

/**
 * The event types whose amounts have one sign: the daily stats keep the completed transactions' sum of absolute
 * amounts, which is their signed sum once the sign is known. Bonus, adjustment and refund go either way.
 */
const SIGN: Partial<Record<EventType, 1n | -1n>> = { deposit: 1n, win: 1n, withdrawal: -1n, bet: -1n };

/** Whether whole days of these filters can be summed from the stats: completed, one-sign types, no id. */
function statsCanSum(f: TransactionFilters): boolean {
  const types = f.event_type ?? EVENT_TYPES;
  return f.status === "completed" && !f.transaction_id && types.every((t) => SIGN[t] !== undefined);
}

interface Totals {
  count: number;
  /** Signed sum in units of 10⁻⁸ (the stored scale), per currency. */
  sums: Map<string, { count: number; units: bigint }>;
}

/** The stats' sums are numeric(30, 8): normalised, they have at most 8 places. */
const unitsOf = (value: { toFixed(): string } | string) => toUnits(ExactNumber.from(value).digits);

function add(totals: Totals, currency: string, count: number, units: bigint) {
  if (count === 0) return;
  const entry = totals.sums.get(currency) ?? { count: 0, units: 0n };
  totals.sums.set(currency, { count: entry.count + count, units: entry.units + units });
  totals.count += count;
}

/** Row by row, per currency: exact for any filter. */
async function sumRows(
  db: PrismaClient,
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
  totals: Totals,
): Promise<void> {
  const rows = await db.$queryRaw<{ currency: string; n: number; total: string }[]>(Prisma.sql`
    SELECT t.currency, count(*)::int AS n, COALESCE(sum(t.amount), 0)::text AS total
    FROM transactions t WHERE ${transactionWhereSql(playerId, f, range)} GROUP BY t.currency`);
  for (const r of rows) add(totals, r.currency, r.n, unitsOf(r.total));
}

/** Whole days from the stats (completed, one-sign types), in the player's currency. */
async function sumStats(
  db: PrismaClient,
  playerId: string,
  f: TransactionFilters,
  days: InstantRange,
  currency: string,
  totals: Totals,
): Promise<void> {
  const groups = await db.transactionDailyStat.groupBy({
    by: ["eventType"],
    where: statsWhere(playerId, f, days),
    _sum: { completedN: true, completedAmount: true },
  });
  for (const g of groups) {
    const sign = SIGN[g.eventType] ?? 1n;
    add(totals, currency, g._sum.completedN ?? 0, sign * unitsOf(g._sum.completedAmount ?? "0"));
  }
}

export interface SumPlayerTransactionsOptions {
  playerId: string;
  filters: TransactionFilters;
}

/**
 * The count and the exact signed sum, per currency, of a player's transactions matching the list's filters (the
 * totals row under the table). Where the filters allow (completed deposits, withdrawals, bets, wins) the whole
 * UTC days come from transaction_daily_stats and only the partial days at the range's ends are read row by row,
 * as countPlayerTransactions does; any other filter is summed row by row, exact either way. Throws a not-found
 * AppError when the player does not exist.
 */
export async function sumPlayerTransactions(
  options: SumPlayerTransactionsOptions,
  db: PrismaClient = getPrisma(),
): Promise<TransactionTotals> {
  const { playerId, filters } = options;
  const player = await db.player.findUnique({ where: { id: playerId }, select: { currency: true } });
  if (!player) throw playerNotFound(playerId);
  const totals: Totals = { count: 0, sums: new Map() };
  const range = filterRange(filters);
  if (range) {
    const { whole, head, tail, hasWholeDay } = splitDays(range);
    if (!statsCanSum(filters) || !hasWholeDay) {
      await sumRows(db, playerId, filters, range, totals);
    } else {
      const parts = [sumStats(db, playerId, filters, whole, player.currency, totals)];
      for (const part of [head, tail]) if (part) parts.push(sumRows(db, playerId, filters, part, totals));
      await Promise.all(parts);
    }
  }
  return {
    player_id: playerId,
    count: totals.count,
    by_currency: [...totals.sums.entries()]
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
      .map(([currency, { count, units }]) => ({ currency, count, sum: new ExactNumber(fromUnits(units)) })),
  };
}
