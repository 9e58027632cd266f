import type { PrismaClient } from "@/lib/db/generated/client";
import type { TransactionFilters } from "@/lib/schemas/transaction";
import { type InstantRange, statsWhere, transactionWhere, wholeDays } from "./transaction-where.ts";

/**
 * For a deep offset: the newest matches, as many whole UTC days of them as fit in `offset`, counted exactly and
 * not read. The list is ordered by date, newest first, so the page at `offset` is the page at
 * `offset - skipped` among the matches before `until`. Days come from transaction_daily_stats (under 500 days
 * for a player with 1.25M transactions), so the database steps over days instead of rows.
 * null when not even the newest day fits (the caller pages as usual).
 */
export async function skipWholeDays(
  playerId: string,
  filters: TransactionFilters,
  range: InstantRange,
  offset: number,
  db: PrismaClient,
): Promise<{ until: Date; skipped: number } | null> {
  // The stats count whole days; the partial days at the range's ends are counted row by row (the newest) or
  // left to the page query (the oldest: it is never skipped whole).
  const whole = wholeDays(range);
  const [days, newestPartialDay] = await Promise.all([
    db.transactionDailyStat.groupBy({
      by: ["day"],
      where: statsWhere(playerId, filters, whole),
      _sum: { n: true },
      orderBy: { day: "desc" },
    }),
    range.until && whole.until && whole.until < range.until
      ? db.transaction.count({
          where: transactionWhere(playerId, filters, { from: whole.until, until: range.until }),
        })
      : 0,
  ]);
  let boundary: Date | null = null;
  let skipped = newestPartialDay;
  for (const d of days) {
    const n = d._sum.n ?? 0;
    if (skipped + n > offset) break;
    skipped += n;
    boundary = d.day;
  }
  return boundary ? { until: boundary, skipped } : null;
}
