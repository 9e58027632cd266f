import type { TransactionFilters } from "@/features/transactions/schema/transaction";
import type { TransactionKey, TransactionSort } from "@/features/transactions/schema/transaction-cursor";
import type { Prisma } from "@/platform/db/generated/client";

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

/** A range's parts as the daily stats count them (splitDays). */
export interface DaySplit {
  /** The whole UTC days inside the range, as a range of midnights (from ≥ until when there is none). */
  whole: InstantRange;
  /** The partial days at the range's start and end, read row by row; null where there is none. */
  head: { from: Date; until: Date } | null;
  tail: { from: Date; until: Date } | null;
  /** false when the range lies within two partial days: then it is cheaper to read it all row by row. */
  hasWholeDay: boolean;
}

/**
 * A range split into its whole UTC days (from the first midnight at or after `from` until the last midnight at or
 * before `until`) and the partial days at its ends.
 */
export function splitDays(range: InstantRange): DaySplit {
  const from = range.from ? new Date(Math.ceil(range.from.getTime() / DAY) * DAY) : null;
  const until = range.until ? new Date(Math.floor(range.until.getTime() / DAY) * DAY) : null;
  return {
    whole: { from, until },
    head: range.from && from && range.from < from ? { from: range.from, until: from } : null,
    tail: range.until && until && until < range.until ? { from: until, until: range.until } : null,
    hasWholeDay: !(from && until && from >= until),
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

/** The row filters the daily stats cannot apply by their key: the status (a column choice) and the id. */
export function rowFilters(f: TransactionFilters): Prisma.TransactionWhereInput {
  return {
    ...(f.status ? { status: f.status } : {}),
    ...(f.transaction_id ? { id: f.transaction_id } : {}),
  };
}

/** The daily stats columns a status filter's count needs, summed (Prisma's `_sum`). */
export const STATUS_COUNT_SUMS = { n: true, completedN: true, failedN: true, cancelledN: true } as const;

type Count = number | null | undefined;

/**
 * The daily stats count of the matches of a day row for the status filter: all (n), the completed, failed or
 * cancelled ones (their own counts), or the pending ones (n minus the other three).
 */
export function statsCount(
  f: TransactionFilters,
  row: { n: Count; completedN?: Count; failedN?: Count; cancelledN?: Count },
): number {
  const n = row.n ?? 0;
  const completed = row.completedN ?? 0;
  const failed = row.failedN ?? 0;
  const cancelled = row.cancelledN ?? 0;
  switch (f.status) {
    case "completed":
      return completed;
    case "failed":
      return failed;
    case "cancelled":
      return cancelled;
    case "pending":
      return n - completed - failed - cancelled;
    default:
      return n;
  }
}

/** Filters → WHERE: values of one filter are ORed, filters are ANDed, the range half-open. */
export function transactionWhere(
  playerId: string,
  f: TransactionFilters,
  range: InstantRange,
): Prisma.TransactionWhereInput {
  const date = rangeFilter(range);
  return { playerId, ...valueFilters(f), ...rowFilters(f), ...(date ? { date } : {}) };
}

/**
 * Rows after `key` in a date order `sort` (the amount orders sort by size: afterKeySql). `date <= key.date` (or its counterpart) is implied by the OR but is
 * spelled out: it becomes the index condition, so the scan starts at the key instead of filtering from the top.
 */
export function afterKey(
  where: Prisma.TransactionWhereInput,
  key: TransactionKey,
  sort: TransactionSort = "date_desc",
): Prisma.TransactionWhereInput {
  const [column, dir] = sortColumn(sort);
  const value = column === "amount" ? (key.amount ?? "0") : key.date;
  const [atOrPast, past] = dir === "desc" ? (["lte", "lt"] as const) : (["gte", "gt"] as const);
  return {
    AND: [
      where,
      { [column]: { [atOrPast]: value } },
      { OR: [{ [column]: { [past]: value } }, { [column]: value, id: { [past]: key.id } }] },
    ],
  };
}

/** The column a sort orders by, and its direction (`id` follows in the same direction). */
export function sortColumn(sort: TransactionSort): ["date" | "amount", "asc" | "desc"] {
  const [column, dir] = sort.split("_") as ["date" | "amount", "asc" | "desc"];
  return [column, dir];
}

/** The list order for a date sort: a total order, `id` breaking ties (the amount orders: orderBySql). */
export function listOrder(sort: TransactionSort = "date_desc"): Prisma.TransactionOrderByWithRelationInput[] {
  const [column, dir] = sortColumn(sort);
  return [{ [column]: dir }, { id: dir }];
}
