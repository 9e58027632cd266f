import {
  createParser,
  parseAsInteger,
  parseAsNativeArrayOf,
  parseAsNumberLiteral,
  parseAsString,
  parseAsStringLiteral,
} from "nuqs";
import { EVENT_TYPES } from "@/lib/schemas/enums";

export const PAGE_SIZES = [10, 20, 50, 100] as const;
export type PageSize = (typeof PAGE_SIZES)[number];
export const DEFAULT_PAGE_SIZE: PageSize = 20;

export const TIME_ZONES = ["utc", "local"] as const;
export type TimeZoneChoice = (typeof TIME_ZONES)[number];

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists. */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

const parseAsDay = createParser({
  parse: (value) => (isDay(value) ? value : null),
  serialize: (value: string) => value,
});

/**
 * The transaction view's state in the URL, so that links can be shared and back/forward and reload
 * restore it. Names follow the API's parameters; `page` counts from 1; `tz` also sets how dates read.
 */
export const transactionSearchParams = {
  event_type: parseAsNativeArrayOf(parseAsStringLiteral(EVENT_TYPES)),
  event_name: parseAsNativeArrayOf(parseAsString),
  created_by: parseAsString,
  from: parseAsDay,
  to: parseAsDay,
  page: parseAsInteger.withDefault(1),
  per_page: parseAsNumberLiteral(PAGE_SIZES).withDefault(DEFAULT_PAGE_SIZE),
};

export const timeZoneSearchParams = {
  tz: parseAsStringLiteral(TIME_ZONES).withDefault("utc"),
};

export type EventTypeValue = (typeof EVENT_TYPES)[number];

export const isEventType = (v: string): v is EventTypeValue => (EVENT_TYPES as readonly string[]).includes(v);

export interface TransactionViewState {
  event_type: EventTypeValue[];
  event_name: string[];
  created_by: string | null;
  from: string | null;
  to: string | null;
  page: number;
  per_page: number;
}

export function hasActiveFilters(
  s: Pick<TransactionViewState, "event_type" | "event_name" | "created_by" | "from" | "to">,
): boolean {
  return s.event_type.length > 0 || s.event_name.length > 0 || Boolean(s.created_by || s.from || s.to);
}

/** A day's first and last millisecond as UTC instants, in UTC or in the browser's time zone. */
export function dayBounds(day: string, tz: TimeZoneChoice): { start: string; end: string } {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  if (tz === "utc") {
    return {
      start: new Date(Date.UTC(y, m - 1, d)).toISOString(),
      end: new Date(Date.UTC(y, m - 1, d, 23, 59, 59, 999)).toISOString(),
    };
  }
  return {
    start: new Date(y, m - 1, d).toISOString(),
    end: new Date(y, m - 1, d, 23, 59, 59, 999).toISOString(),
  };
}

/** The API query for the view: the same filters, the date range read in the chosen time zone, and the page. */
export function toTransactionApiQuery(s: TransactionViewState, tz: TimeZoneChoice): URLSearchParams {
  const q = toTransactionFilterQuery(s, tz);
  q.set("limit", String(s.per_page));
  q.set("offset", String((Math.max(1, s.page) - 1) * s.per_page));
  return q;
}

/** The export's query: every transaction the view's filters match, no paging. */
export function toTransactionExportQuery(s: TransactionViewState, tz: TimeZoneChoice): URLSearchParams {
  const q = toTransactionFilterQuery(s, tz);
  q.set("format", "csv");
  return q;
}

function toTransactionFilterQuery(s: TransactionViewState, tz: TimeZoneChoice): URLSearchParams {
  const q = new URLSearchParams();
  for (const t of s.event_type) q.append("event_type", t);
  for (const n of s.event_name) q.append("event_name", n);
  if (s.created_by) q.set("created_by", s.created_by);
  // Inclusive whole days: the API reads date-time bounds inclusively (from ≤ date ≤ to).
  if (s.from) q.set("from_date", dayBounds(s.from, tz).start);
  if (s.to) q.set("to_date", dayBounds(s.to, tz).end);
  return q;
}

/** Today as `YYYY-MM-DD` in UTC or in the browser's time zone. */
export function today(tz: TimeZoneChoice, now: Date = new Date()): string {
  if (tz === "utc") return now.toISOString().slice(0, 10);
  const p = (n: number) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${p(now.getMonth() + 1)}-${p(now.getDate())}`;
}

export function addDays(day: string, days: number): string {
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + days)).toISOString().slice(0, 10);
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
