import { parseAsStringLiteral } from "nuqs/server";

/** How dates read on the pages: in UTC or in the browser's time zone (the `tz` URL parameter). */
export const TIME_ZONES = ["utc", "local"] as const;
export type TimeZoneChoice = (typeof TIME_ZONES)[number];

/** The `tz` URL parameter, shared by every page that shows dates. */
export const timeZoneSearchParams = {
  tz: parseAsStringLiteral(TIME_ZONES).withDefault("utc"),
};

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists. */
export function isDay(value: string): boolean {
  const m = DAY.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return y >= 1900 && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
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
