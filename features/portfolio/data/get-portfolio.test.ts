import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { portfolioDays } from "./get-portfolio.ts";

const DAY = 86_400_000;
const days = (from: string, until: string) => (Date.parse(until) - Date.parse(from)) / DAY;

/*
 * The flags' windows as whole UTC days (the statement compares stored days with them, so each is a first day,
 * inclusive). The flags themselves are decided in SQL: their boundaries are in get-portfolio.int.test.ts.
 */
describe("portfolioDays", () => {
  it("gives the same days from the first to the last millisecond of a UTC day", () => {
    const first = portfolioDays(new Date("2026-06-30T00:00:00.000Z"));
    expect(portfolioDays(new Date("2026-06-30T23:59:59.999Z"))).toEqual({
      ...first,
      // The 7 days before as_of to the millisecond: the day holding as_of − 7 days.
      week: "2026-06-23",
    });
    expect(first.week).toBe("2026-06-23");
    expect(portfolioDays(new Date("2026-07-01T00:00:00.000Z")).today).toBe("2026-07-01");
  });

  it("last 30 days, the 30 before them, the last 7 and the 12 weeks before those, for any instant (property)", () => {
    const instant = fc.integer({
      min: Date.parse("2000-01-01T00:00:00Z"),
      max: Date.parse("2100-01-01T00:00:00Z"),
    });
    fc.assert(
      fc.property(instant, (ms) => {
        const d = portfolioDays(new Date(ms));
        expect(d.today).toBe(new Date(ms).toISOString().slice(0, 10));
        const nextDay = new Date(Date.parse(d.today) + DAY).toISOString().slice(0, 10);
        expect(days(d.last30, nextDay)).toBe(30);
        expect(days(d.prev30, d.last30)).toBe(30);
        expect(days(d.last7, nextDay)).toBe(7);
        expect(days(d.usual, d.last7)).toBe(84);
        expect(d.week).toBe(new Date(ms - 7 * DAY).toISOString().slice(0, 10));
      }),
      { numRuns: 500 },
    );
  });
});
