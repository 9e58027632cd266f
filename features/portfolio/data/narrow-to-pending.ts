import "server-only";
import type { TransactionFilters } from "@/features/transactions";
import { type InstantRange, statsWhere } from "@/features/transactions";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";

const DAY = 86_400_000;

export interface NarrowToPendingOptions {
  playerId: string;
  filters: TransactionFilters;
  /** The filters' range (filterRange). */
  range: InstantRange;
}

/**
 * For status=pending, failed or cancelled: the range cut down to the UTC days that hold a transaction that is not
 * completed (days whose daily stats count more transactions than completed ones): every match lies on such a day. Pending transactions are few and recent, but nothing indexes them: a
 * page that runs past the last one would otherwise step over every completed row of the player (1.25M for the
 * whale) to prove that nothing follows. Exact, as every pending match lies on such a day. null when no day does.
 * The range is returned unchanged for any other status.
 */
export async function narrowToPending(
  options: NarrowToPendingOptions,
  db: PrismaClient = getPrisma(),
): Promise<InstantRange | null> {
  const { playerId, filters, range } = options;
  if (!filters.status || filters.status === "completed") return range;
  // Every day the range touches, its partial end days included.
  const days = {
    from: range.from && new Date(Math.floor(range.from.getTime() / DAY) * DAY),
    until: range.until && new Date(Math.ceil(range.until.getTime() / DAY) * DAY),
  };
  const span = await db.transactionDailyStat.aggregate({
    where: { ...statsWhere(playerId, filters, days), n: { gt: db.transactionDailyStat.fields.completedN } },
    _min: { day: true },
    _max: { day: true },
  });
  const first = span._min.day;
  const last = span._max.day;
  if (!first || !last) return null;
  const from = range.from && range.from > first ? range.from : first;
  const lastEnd = new Date(last.getTime() + DAY);
  const until = range.until && range.until < lastEnd ? range.until : lastEnd;
  return { from, until };
}
