import type { TimeZoneChoice } from "@/platform/format/days";
import { DISPLAY_LOCALE } from "./locale.ts";

const formats = new Map<string, Intl.DateTimeFormat>();

function dateTimeFormat(
  tz: TimeZoneChoice,
  style: "date" | "datetime" | "datetime-seconds",
): Intl.DateTimeFormat {
  const key = `${tz}|${style}`;
  let f = formats.get(key);
  if (!f) {
    const timeZone = tz === "utc" ? "UTC" : undefined;
    f = new Intl.DateTimeFormat(DISPLAY_LOCALE, {
      timeZone,
      year: "numeric",
      month: "short",
      day: "2-digit",
      ...(style === "date"
        ? {}
        : {
            hour: "2-digit",
            minute: "2-digit",
            ...(style === "datetime-seconds" ? { second: "2-digit" } : {}),
          }),
      hourCycle: "h23",
    });
    formats.set(key, f);
  }
  return f;
}

/** An instant in the chosen time zone, in the display locale: "Nov 20, 2026, 12:00". */
export function formatDateTime(iso: string, tz: TimeZoneChoice, seconds = false): string {
  return dateTimeFormat(tz, seconds ? "datetime-seconds" : "datetime").format(new Date(iso));
}

let timeFormats: Partial<Record<TimeZoneChoice, Intl.DateTimeFormat>> = {};

/** The time of day with seconds, 24-hour: "14:03:12". */
export function formatTime(iso: string, tz: TimeZoneChoice): string {
  let f = timeFormats[tz];
  if (!f) {
    f = new Intl.DateTimeFormat(DISPLAY_LOCALE, {
      timeZone: tz === "utc" ? "UTC" : undefined,
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
      hourCycle: "h23",
    });
    timeFormats = { ...timeFormats, [tz]: f };
  }
  return f.format(new Date(iso));
}

export function formatDate(iso: string, tz: TimeZoneChoice): string {
  return dateTimeFormat(tz, "date").format(new Date(iso));
}

/** The browser's IANA time zone, e.g. Europe/Berlin. */
export function localTimeZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone;
}

export function timeZoneLabel(tz: TimeZoneChoice): string {
  return tz === "utc" ? "UTC" : localTimeZoneName();
}

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

let relative: Intl.RelativeTimeFormat | undefined;

/** "3 days ago", "in 2 hours": the largest unit that fits, in the display locale. */
export function formatRelative(iso: string, now: number = Date.now()): string {
  relative ??= new Intl.RelativeTimeFormat(DISPLAY_LOCALE, { numeric: "auto" });
  const seconds = (new Date(iso).getTime() - now) / 1000;
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  }
  return relative.format(0, "minute");
}
