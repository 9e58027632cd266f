import type { Prisma } from "@/lib/db/generated/client";
import type { TransactionFilters } from "@/lib/schemas/transaction";
import type { TransactionKey } from "@/lib/schemas/transaction-cursor";

/** A half-open span of instants [from, until); null ends are unbounded. */
export interface InstantRange {
  from: Date | null;
  until: Date | null;
}

/** The last instant the API can write (ISO 8601 has four-digit years); stored dates never exceed it. */
const LATEST = Date.UTC(9999, 11, 31, 23, 59, 59, 999);

/**
 * The filters' date bounds as a half-open range at the stored precision (milliseconds), or null when no
 * stored transaction can match. An inclusive to_date t becomes "before t + 1 ms"; bounds past year 9999 are
 * treated as unbounded, so they never reach PostgreSQL as a five-digit year.
 */
export function filterRange(f: TransactionFilters): InstantRange | null {
  if (f.from_date && f.from_date.at.getTime() > LATEST) return null;
  let until: Date | null = null;
  if (f.to_date) {
    const end = f.to_date.at.getTime() + (f.to_date.exclusive ? 0 : 1);
    if (end <= LATEST) until = new Date(end);
  }
  return { from: f.from_date?.at ?? null, until };
}

/** The value filters, in the shape both transactions and their daily stats take (same field names). */
export function valueFilters(f: TransactionFilters) {
  return {
    ...(f.event_type ? { eventType: { in: f.event_type } } : {}),
    ...(f.event_name ? { eventName: { in: f.event_name } } : {}),
    ...(f.created_by ? { createdBy: f.created_by } : {}),
  };
}

const DAY = 86_400_000;

/**
 * The whole UTC days inside a range, as a range of midnights: from the first midnight at or after `from`, until
 * the last midnight at or before `until`. Empty (from ≥ until) when the range holds no whole day.
 */
export function wholeDays(range: InstantRange): InstantRange {
  return {
    from: range.from ? new Date(Math.ceil(range.from.getTime() / DAY) * DAY) : null,
    until: range.until ? new Date(Math.floor(range.until.getTime() / DAY) * DAY) : null,
  };
}

/** The daily stats rows of the given whole days that match the filters' values. */
export function statsWhere(
  playerId: string,
  f: TransactionFilters,
  days: InstantRange,
): Prisma.TransactionDailyStatWhereInput {
  const day = rangeFilter(days);
  return { playerId, ...valueFilters(f), ...(day ? { day } : {}) };
}

/** A half-open range as a Prisma filter; undefined when unbounded. */
export function rangeFilter(range: InstantRange): Prisma.DateTimeFilter | undefined {
  if (!range.from && !range.until) return undefined;
  return { ...(range.from ? { gte: range.from } : {}), ...(range.until ? { lt: range.until } : {}) };
}

/** Filters → WHERE: values of one filter are ORed, filters are ANDed, the range half-open. */
export function transactionWhere(
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
): Prisma.TransactionWhereInput {
  const date = rangeFilter(range);
  return { playerId, ...valueFilters(f), ...(date ? { date } : {}) };
}

/**
 * Rows after `key` in the list order (date DESC, id DESC). `date <= key.date` is implied by the OR but is
 * spelled out: it becomes the index condition, so the scan starts at the key instead of filtering from the top.
 */
export function afterKey(
  where: Prisma.TransactionWhereInput,
  key: TransactionKey,
): Prisma.TransactionWhereInput {
  return {
    AND: [where, { date: { lte: key.date } }, { OR: [{ date: { lt: key.date } }, { id: { lt: key.id } }] }],
  };
}

export const LIST_ORDER: Prisma.TransactionOrderByWithRelationInput[] = [{ date: "desc" }, { id: "desc" }];
