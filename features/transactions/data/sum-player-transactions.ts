import "server-only";
import {
  EVENT_TYPES,
  type EventType,
  TRANSACTION_STATUSES,
  type TransactionFilters,
  type TransactionStatus,
} from "@/features/transactions/schema/transaction";
import type { TransactionTotals } from "@/features/transactions/schema/transaction-totals";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { fromUnits, toUnits } from "@/platform/format/exact-decimal";
import { playerNotFound } from "@/platform/http/errors";
import { ExactNumber } from "@/platform/schemas/exact-number";
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

type StatusUnits = Record<TransactionStatus, { count: number; units: bigint }>;

interface Totals {
  count: number;
  /** Signed sums in units of 10⁻⁸ (the stored scale), per currency and status. */
  sums: Map<string, StatusUnits>;
}

/** The stats' sums are numeric(30, 8): normalised, they have at most 8 places. */
const unitsOf = (value: { toFixed(): string } | string) => toUnits(ExactNumber.from(value).digits);

const noStatusUnits = (): StatusUnits =>
  Object.fromEntries(TRANSACTION_STATUSES.map((s) => [s, { count: 0, units: 0n }])) as StatusUnits;

function add(totals: Totals, currency: string, status: TransactionStatus, count: number, units: bigint) {
  if (count === 0) return;
  const entry = totals.sums.get(currency) ?? noStatusUnits();
  entry[status] = { count: entry[status].count + count, units: entry[status].units + units };
  totals.sums.set(currency, entry);
  totals.count += count;
}

/** Row by row, per currency and status: exact for any filter. */
async function sumRows(
  db: PrismaClient,
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
  totals: Totals,
): Promise<void> {
  const rows = await db.$queryRaw<
    { currency: string; status: TransactionStatus; n: number; total: string }[]
  >(
    Prisma.sql`
    SELECT t.currency, t.status::text AS status, count(*)::int AS n, COALESCE(sum(t.amount), 0)::text AS total
    FROM transactions t WHERE ${transactionWhereSql(playerId, f, range)} GROUP BY t.currency, t.status`,
  );
  for (const r of rows) add(totals, r.currency, r.status, r.n, unitsOf(r.total));
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
    add(totals, currency, "completed", g._sum.completedN ?? 0, sign * unitsOf(g._sum.completedAmount ?? "0"));
  }
}

const exact = (units: bigint) => new ExactNumber(fromUnits(units));

export interface SumPlayerTransactionsOptions {
  playerId: string;
  filters: TransactionFilters;
}

/**
 * The count and the exact signed sum, per currency, of a player's transactions matching the list's filters (the
 * totals row under the table): the count is every match's, the sum the completed matches' only (the money that
 * moved), and by_status each status's count and sum beside it. Where the filters allow (completed deposits, withdrawals, bets, wins) the whole
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
      .map(([currency, byStatus]) => ({
        currency,
        count: TRANSACTION_STATUSES.reduce((n, s) => n + byStatus[s].count, 0),
        // Only the completed matches' money moved (docs/decisions.md, "Money that moved").
        sum: exact(byStatus.completed.units),
        by_status: {
          completed: { count: byStatus.completed.count, sum: exact(byStatus.completed.units) },
          pending: { count: byStatus.pending.count, sum: exact(byStatus.pending.units) },
          failed: { count: byStatus.failed.count, sum: exact(byStatus.failed.units) },
          cancelled: { count: byStatus.cancelled.count, sum: exact(byStatus.cancelled.units) },
        },
      })),
  };
}
