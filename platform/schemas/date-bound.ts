import { z } from "zod";

/*
 * from_date / to_date: an ISO 8601 date-time with an offset (Z, ±hh:mm or ±hhmm), a date-time without
 * one (read as UTC), or a date alone (a whole UTC day). Bounds are inclusive:
 *   from_date=2026-01-01 → date ≥ 2026-01-01T00:00:00.000Z
 *   to_date=2026-01-31   → date < 2026-02-01T00:00:00.000Z (the whole day is included)
 */
const DATE_ONLY = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d{1,9}))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))?$/;

export type DateBoundKind = "from" | "to";

/** 0001-01-01T00:00:00Z: PostgreSQL has no year 0, so an instant before this cannot be a query parameter. */
const EARLIEST = new Date(0).setUTCFullYear(1, 0, 1);

/** The instant a bound stands for, as a half-open or closed comparison on millisecond timestamps. */
export interface DateBound {
  /** Compare with `>=` for from, `<` or `<=` for to (see `exclusive`). */
  at: Date;
  /** true when a date-only to_date was turned into "before the next day". */
  exclusive: boolean;
}

function validCalendarDate(y: number, m: number, d: number): boolean {
  if (m < 1 || m > 12 || d < 1) return false;
  return d <= new Date(Date.UTC(y, m, 0)).getUTCDate();
}

export function parseDateBound(text: string, kind: DateBoundKind): DateBound | null {
  const dateOnly = DATE_ONLY.exec(text);
  if (dateOnly) {
    const [y, m, d] = [Number(dateOnly[1]), Number(dateOnly[2]), Number(dateOnly[3])];
    if (y < 1 || !validCalendarDate(y, m, d)) return null;
    const start = new Date(0);
    start.setUTCFullYear(y, m - 1, d);
    if (kind === "from") return { at: start, exclusive: false };
    const next = new Date(start);
    next.setUTCDate(next.getUTCDate() + 1);
    return { at: next, exclusive: true };
  }
  const dt = DATE_TIME.exec(text);
  if (!dt) return null;
  const [y, mo, d, h, mi] = [1, 2, 3, 4, 5].map((i) => Number(dt[i])) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const s = dt[6] ? Number(dt[6]) : 0;
  if (y < 1 || !validCalendarDate(y, mo, d) || h > 23 || mi > 59 || s > 59) return null;
  let offsetMinutes = 0;
  if (dt[9]) {
    const oh = Number(dt[10]);
    const om = Number(dt[11]);
    if (oh > 23 || om > 59) return null;
    offsetMinutes = (dt[9] === "-" ? -1 : 1) * (oh * 60 + om);
  }
  const fraction = (dt[7] ?? "").padEnd(9, "0");
  const millis = Number(fraction.slice(0, 3));
  // Stored times have millisecond precision: a from_date with sub-millisecond digits starts at the next ms.
  const roundUp = kind === "from" && /[1-9]/.test(fraction.slice(3)) ? 1 : 0;
  const at = new Date(0);
  at.setUTCFullYear(y, mo - 1, d);
  at.setUTCHours(h, mi - offsetMinutes, s, millis + roundUp);
  // An offset can push 0001-01-01 into year 0, which the database rejects: that is a 400, not a 500.
  if (Number.isNaN(at.getTime()) || at.getTime() < EARLIEST) return null;
  return { at, exclusive: false };
}

/**
 * A from_date / to_date query parameter: any form parseDateBound reads, else a 400 naming it. `kept` says what
 * the bound keeps ("events", "transactions whose `date` is").
 */
export const dateBoundParam = (kind: DateBoundKind, kept: string) =>
  z
    .string()
    .transform((text, ctx): DateBound => {
      const bound = parseDateBound(text, kind);
      if (bound) return bound;
      ctx.addIssue({
        code: "custom",
        message: "must be an ISO 8601 date (2026-01-31) or date-time (2026-01-31T23:59:59Z)",
      });
      return z.NEVER;
    })
    .optional()
    .meta({
      override: { type: "string" },
      description:
        kind === "from"
          ? `Keep ${kept} at or after this instant (inclusive). A date-time without offset is UTC; a date alone means 00:00:00Z of that day.`
          : `Keep ${kept} at or before this instant (inclusive). A date-time without offset is UTC; a date alone includes that whole UTC day.`,
      param: { example: kind === "from" ? "2026-01-01" : "2026-01-31T23:59:59Z" },
    });

/** A query's from_date after its to_date (nothing could match): a 400 naming from_date. */
export function checkDateRange(
  q: { from_date?: DateBound | undefined; to_date?: DateBound | undefined },
  ctx: z.RefinementCtx,
) {
  if (!q.from_date || !q.to_date) return;
  const empty = q.to_date.exclusive ? q.from_date.at >= q.to_date.at : q.from_date.at > q.to_date.at;
  if (empty) ctx.addIssue({ code: "custom", path: ["from_date"], message: "must not be after to_date" });
}
