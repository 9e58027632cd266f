import "server-only";
import type { TransactionFilters } from "@/features/transactions/schema/transaction";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import {
  type InstantRange,
  STATUS_COUNT_SUMS,
  splitDays,
  statsCount,
  statsWhere,
  transactionWhere,
} from "./transaction-where.ts";

const DAY = 86_400_000;

export interface SkipWholeDaysOptions {
  playerId: string;
  filters: TransactionFilters;
  /** The filters' range (filterRange). */
  range: InstantRange;
  /** The page's offset in the date order. */
  offset: number;
  /** The date order; default "desc" (newest first). */
  direction?: "asc" | "desc" | undefined;
}

/**
 * For a deep offset in a date order: the first matches in that order (newest for `desc`, oldest for `asc`), as
 * many whole UTC days of them as fit in `offset`, counted exactly and not read. The page at `offset` is then the
 * page at `offset - skipped` among the matches in the returned (narrower) range. Days come from
 * transaction_daily_stats (under 500 days for a player with 1.25M transactions), so the database steps over days
 * instead of rows. null when not even the first day fits (the caller pages as usual), and for a transaction id
 * lookup (the stats do not know ids; it matches one row at most anyway).
 */
export async function skipWholeDays(
  options: SkipWholeDaysOptions,
  db: PrismaClient = getPrisma(),
): Promise<{ range: InstantRange; skipped: number } | null> {
  const { playerId, filters, range, offset, direction = "desc" } = options;
  if (filters.transaction_id) return null;
  // The stats count whole days; the partial day at the range's leading end is counted row by row, the one at the
  // trailing end is left to the page query (it is never skipped whole).
  const { whole, head, tail } = splitDays(range);
  const leading = direction === "desc" ? tail : head;
  const [days, leadingPartialDay] = await Promise.all([
    db.transactionDailyStat.groupBy({
      by: ["day"],
      where: statsWhere(playerId, filters, whole),
      _sum: STATUS_COUNT_SUMS,
      orderBy: { day: direction },
    }),
    leading ? db.transaction.count({ where: transactionWhere(playerId, filters, leading) }) : 0,
  ]);
  let boundary: Date | null = null;
  let skipped = leadingPartialDay;
  for (const d of days) {
    const n = statsCount(filters, d._sum);
    if (skipped + n > offset) break;
    skipped += n;
    boundary = direction === "desc" ? d.day : new Date(d.day.getTime() + DAY);
  }
  if (!boundary) return null;
  return {
    range:
      direction === "desc" ? { from: range.from, until: boundary } : { from: boundary, until: range.until },
    skipped,
  };
}
