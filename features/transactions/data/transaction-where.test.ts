import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  type TransactionFilters,
  transactionListQuerySchema,
} from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { filterRange, type InstantRange, rangeFilter, splitDays, statsCount } from "./transaction-where.ts";

/** The filters a query string parses to, as the route hands them on. */
function filters(qs: string): TransactionFilters {
  return parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
}

/** Whether a stored instant falls in a range, the way the database compares it (gte from, lt until). */
function inRange(range: InstantRange | null, ms: number): boolean {
  if (!range) return false;
  return (!range.from || ms >= range.from.getTime()) && (!range.until || ms < range.until.getTime());
}

const at = (iso: string) => new Date(iso).getTime();

describe("filterRange", () => {
  it("an inclusive to_date keeps its own millisecond and not the next one", () => {
    const range = filterRange(filters("to_date=2026-01-31T10:00:00.000Z"));
    const t = at("2026-01-31T10:00:00.000Z");
    expect([inRange(range, t - 1), inRange(range, t), inRange(range, t + 1)]).toEqual([true, true, false]);
    expect(range).toEqual({ from: null, until: new Date(t + 1) });
  });

  it("a date-only to_date keeps the whole day and not the next midnight", () => {
    const range = filterRange(filters("to_date=2026-01-31"));
    const midnight = at("2026-02-01T00:00:00.000Z");
    expect([inRange(range, midnight - 1), inRange(range, midnight)]).toEqual([true, false]);
  });

  it("from_date is inclusive to the millisecond", () => {
    const range = filterRange(filters("from_date=2026-01-31T10:00:00.000Z"));
    const t = at("2026-01-31T10:00:00.000Z");
    expect([inRange(range, t - 1), inRange(range, t), inRange(range, t + 1)]).toEqual([false, true, true]);
  });

  it("matches the bounds' own reading for any instant and any inclusive bounds (property)", () => {
    const instant = fc.integer({ min: at("2000-01-01T00:00:00Z"), max: at("2040-01-01T00:00:00Z") });
    // The instant is drawn mostly at a millisecond's distance from a bound: the edges are where bugs live.
    const near = fc.tuple(fc.constantFrom("from", "to", "any"), fc.integer({ min: -1, max: 1 }));
    fc.assert(
      fc.property(instant, instant, instant, near, (a, b, any, [which, delta]) => {
        const [from, to] = [Math.min(a, b), Math.max(a, b)];
        const t = (which === "from" ? from : which === "to" ? to : any) + delta;
        const q = `from_date=${new Date(from).toISOString()}&to_date=${new Date(to).toISOString()}`;
        expect(inRange(filterRange(filters(q)), t)).toBe(t >= from && t <= to);
      }),
      { numRuns: 500 },
    );
  });

  it("bounds past the last writable instant: a from_date matches nothing, a to_date is unbounded", () => {
    const last = "9999-12-31T23:59:59.999Z";
    expect(filterRange(filters(`from_date=${last}`))).toEqual({ from: new Date(last), until: null });
    expect(filterRange(filters(`to_date=${last}`))).toEqual({ from: null, until: null });
    expect(filterRange(filters("to_date=9999-12-31"))).toEqual({ from: null, until: null });
    // 9999-12-31T23:59:59.999-00:01 is a minute into year 10000.
    expect(filterRange(filters("from_date=9999-12-31T23:59:59.999-00:01"))).toBeNull();
    expect(filterRange(filters("to_date=9999-12-31T23:58:59.998Z"))?.until).toEqual(
      new Date("9999-12-31T23:58:59.999Z"),
    );
  });

  it("no dates, no bounds", () => {
    const range = filterRange(filters(""));
    expect(range).toEqual({ from: null, until: null });
    expect(range && rangeFilter(range)).toBeUndefined();
  });
});

describe("splitDays", () => {
  const DAY = 86_400_000;
  it("covers a range exactly once with its partial head, whole days and partial tail (property)", () => {
    const instant = fc.integer({ min: at("2026-01-01T00:00:00Z"), max: at("2026-01-10T00:00:00Z") });
    fc.assert(
      fc.property(instant, instant, instant, (a, b, t) => {
        const range = { from: new Date(Math.min(a, b)), until: new Date(Math.max(a, b)) };
        const split = splitDays(range);
        const parts = [split.head, split.hasWholeDay ? split.whole : null, split.tail].filter(
          (p): p is InstantRange => p !== null,
        );
        const hits = parts.filter((p) => inRange(p, t)).length;
        // Without a whole day the caller reads the range row by row: head and tail are not used then.
        if (split.hasWholeDay) expect(hits).toBe(inRange(range, t) ? 1 : 0);
        if (split.hasWholeDay) {
          expect(split.whole.from && split.whole.from.getTime() % DAY).toBe(0);
          expect(split.whole.until && split.whole.until.getTime() % DAY).toBe(0);
        }
      }),
      { numRuns: 1_000 },
    );
  });

  it("a range within one day has no whole day", () => {
    const split = splitDays({
      from: new Date("2026-01-02T01:00:00Z"),
      until: new Date("2026-01-02T02:00:00Z"),
    });
    expect(split.hasWholeDay).toBe(false);
  });

  it("midnight to midnight is whole days only", () => {
    const split = splitDays({
      from: new Date("2026-01-02T00:00:00Z"),
      until: new Date("2026-01-04T00:00:00Z"),
    });
    expect(split).toEqual({
      whole: { from: new Date("2026-01-02T00:00:00Z"), until: new Date("2026-01-04T00:00:00Z") },
      head: null,
      tail: null,
      hasWholeDay: true,
    });
  });
});

describe("statsCount", () => {
  const row = { n: 10, completedN: 4, failedN: 3, cancelledN: 2 };
  it.each([
    ["", 10],
    ["status=completed", 4],
    ["status=failed", 3],
    ["status=cancelled", 2],
    ["status=pending", 1],
  ])("%j counts %d of a day's 10", (qs, expected) => {
    expect(statsCount(filters(qs), row)).toBe(expected);
  });

  it("a day row without sums counts 0", () => {
    expect(statsCount(filters("status=pending"), { n: null })).toBe(0);
  });
});
