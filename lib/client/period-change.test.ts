import { describe, expect, it } from "vitest";
import { countChange, moneyChange, subtractExact } from "./period-change.ts";

const AGAINST = "previous 30 days";
/** The change in euros against the previous 30 days. */
const eur = (current: string, previous: string) => moneyChange(current, previous, "EUR", AGAINST);

describe("period change: exact differences, words and signs (not colour alone)", () => {
  it("subtracts exactly at 8 places, beyond a double's digits", () => {
    expect(subtractExact("123456789012.12345678", "0.00000001")).toBe("123456789012.12345677");
    expect(subtractExact("0.1", "0.3")).toBe("-0.2");
    expect(subtractExact("-5", "-5")).toBe("0");
    expect(subtractExact("10", "-2.5")).toBe("12.5");
  });

  it("money: signed difference and its share, one decimal, rounded half away from zero", () => {
    expect(eur("1120", "1000")).toEqual({ direction: "up", text: "+€120.00 (+12%) vs previous 30 days" });
    expect(eur("880", "1000")).toEqual({ direction: "down", text: "-€120.00 (−12%) vs previous 30 days" });
    expect(eur("2", "3").text).toBe("-€1.00 (−33.3%) vs previous 30 days");
    expect(eur("1.0005", "1").text).toBe("+€0.0005 (+0.1%) vs previous 30 days");
  });

  it("a previous zero has no share; no difference says so in words", () => {
    expect(eur("50", "0")).toEqual({ direction: "up", text: "+€50.00 vs previous 30 days" });
    expect(eur("0", "0")).toEqual({ direction: "same", text: "no change vs previous 30 days" });
  });

  it("a negative base (GGR the player won) keeps the direction of the difference", () => {
    // From −100 (the player won 100) to +50 (the house won 50): up by 150, +150% of the base's size.
    expect(eur("50", "-100").text).toBe("+€150.00 (+150%) vs previous 30 days");
  });

  it("counts", () => {
    expect(countChange(12, 10, AGAINST)).toEqual({ direction: "up", text: "+2 (+20%) vs previous 30 days" });
    expect(countChange(0, 3, AGAINST)).toEqual({ direction: "down", text: "−3 (−100%) vs previous 30 days" });
    expect(countChange(4, 0, AGAINST).text).toBe("+4 vs previous 30 days");
  });
});
