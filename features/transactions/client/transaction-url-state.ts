import {
  createParser,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsNumberLiteral,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs/server";
import type { TransactionStatus } from "@/features/transactions/schema/transaction";
import type { TransactionSort } from "@/features/transactions/schema/transaction-cursor";
import { addDays, dayBounds, isDay, type TimeZoneChoice, today } from "@/platform/format/days";
import { EVENT_TYPES } from "@/platform/schemas/enums";

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;

/** The API's orders and statuses, restated here (the schema modules are server code); the types keep them equal. */
export const SORTS = [
  "date_desc",
  "date_asc",
  "amount_desc",
  "amount_asc",
] as const satisfies readonly TransactionSort[];
export type SortValue = (typeof SORTS)[number];
export const DEFAULT_SORT: SortValue = "date_desc";
export const STATUSES = [
  "pending",
  "completed",
  "failed",
  "cancelled",
] as const satisfies readonly TransactionStatus[];
export type StatusValue = (typeof STATUSES)[number];

const parseAsDay = createParser({
  parse: (value) => (isDay(value) ? value : null),
  serialize: (value: string) => value,
});

/**
 * The transaction view's state in the URL, so that links can be shared and back/forward and reload
 * restore it. Names follow the API's parameters; `page` counts from 1; `tz` also sets how dates read.
 */
/** One value of each parameter, as the URL may carry it (array parameters repeat). */
const itemParsers = {
  event_type: parseAsStringLiteral(EVENT_TYPES),
  event_name: parseAsString,
  created_by: parseAsString,
  status: parseAsStringLiteral(STATUSES),
  transaction_id: parseAsString,
  from: parseAsDay,
  to: parseAsDay,
  sort: parseAsStringLiteral(SORTS),
  page: parseAsInteger,
  per_page: parseAsNumberLiteral(PAGE_SIZES),
};

export const transactionSearchParams = {
  event_type: parseAsNativeArrayOf(itemParsers.event_type),
  event_name: parseAsNativeArrayOf(itemParsers.event_name),
  created_by: itemParsers.created_by,
  status: itemParsers.status,
  transaction_id: itemParsers.transaction_id,
  from: itemParsers.from,
  to: itemParsers.to,
  sort: itemParsers.sort.withDefault(DEFAULT_SORT),
  page: itemParsers.page.withDefault(1),
  per_page: itemParsers.per_page.withDefault(DEFAULT_PAGE_SIZE),
};

export interface IgnoredParam {
  name: string;
  value: string;
}

/**
 * The view's parameters in a URL whose values the page cannot use (`per_page=7`, `sort=sideways`, a page below
 * 1): the page falls back to its default for them, and says so instead of ignoring them silently. Valid values
 * beside them still apply; other parameters (the section, the time zone) are not this view's to judge.
 */
export function ignoredTransactionParams(search: URLSearchParams): IgnoredParam[] {
  const ignored: IgnoredParam[] = [];
  for (const [name, parser] of Object.entries(itemParsers)) {
    for (const value of search.getAll(name)) {
      const parsed = parser.parse(value);
      const usable = parsed !== null && (name !== "page" || (parsed as number) >= 1) && value !== "";
      if (!usable) ignored.push({ name, value });
    }
  }
  return ignored;
}

export type EventTypeValue = (typeof EVENT_TYPES)[number];

export const isEventType = (v: string): v is EventTypeValue => (EVENT_TYPES as readonly string[]).includes(v);

export interface TransactionViewState {
  event_type: EventTypeValue[];
  event_name: string[];
  created_by: string | null;
  status: StatusValue | null;
  transaction_id: string | null;
  from: string | null;
  to: string | null;
  sort: SortValue;
  page: number;
  per_page: number;
}

export type FilterState = Pick<
  TransactionViewState,
  "event_type" | "event_name" | "created_by" | "status" | "transaction_id" | "from" | "to"
>;

export function hasActiveFilters(s: FilterState): boolean {
  return (
    s.event_type.length > 0 ||
    s.event_name.length > 0 ||
    Boolean(s.created_by || s.status || s.transaction_id || s.from || s.to)
  );
}

/** The API query for the view: the same filters, the date range read in the chosen time zone, order and page. */
export function toTransactionApiQuery(s: TransactionViewState, tz: TimeZoneChoice): URLSearchParams {
  const q = toTransactionFilterQuery(s, tz);
  if (s.sort !== DEFAULT_SORT) q.set("sort", s.sort);
  q.set("limit", String(s.per_page));
  q.set("offset", String((Math.max(1, s.page) - 1) * s.per_page));
  return q;
}

/** The export's query: every transaction the view's filters match, in the view's order, no paging. */
export function toTransactionExportQuery(s: TransactionViewState, tz: TimeZoneChoice): URLSearchParams {
  const q = toTransactionFilterQuery(s, tz);
  if (s.sort !== DEFAULT_SORT) q.set("sort", s.sort);
  q.set("format", "csv");
  return q;
}

/** The filters alone, as the list, the export and the facets (faceted counts) take them. */
export function toTransactionFilterQuery(s: FilterState, tz: TimeZoneChoice): URLSearchParams {
  const q = new URLSearchParams();
  for (const t of s.event_type) q.append("event_type", t);
  for (const n of s.event_name) q.append("event_name", n);
  if (s.created_by) q.set("created_by", s.created_by);
  if (s.status) q.set("status", s.status);
  if (s.transaction_id) q.set("transaction_id", s.transaction_id);
  // Inclusive whole days: the API reads date-time bounds inclusively (from ≤ date ≤ to).
  if (s.from) q.set("from_date", dayBounds(s.from, tz).start);
  if (s.to) q.set("to_date", dayBounds(s.to, tz).end);
  return q;
}

export const DATE_PRESETS = [
  { days: 7, label: "Last 7 days" },
  { days: 30, label: "Last 30 days" },
  { days: 90, label: "Last 90 days" },
] as const;

/** "Last N days": today and the N − 1 days before it. */
export function presetRange(
  days: number,
  tz: TimeZoneChoice,
  now: Date = new Date(),
): { from: string; to: string } {
  const to = today(tz, now);
  return { from: addDays(to, -(days - 1)), to };
}
