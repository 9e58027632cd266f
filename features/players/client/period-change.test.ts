import { describe, expect, it } from "vitest";
import { countChange, moneyChange, subtractExact } from "./period-change.ts";

const AGAINST = "previous 30 days";

describe("period change: exact differences, words and signs (not colour alone)", () => {
  it("subtracts exactly at 8 places, beyond a double's digits", () => {
    expect(subtractExact("123456789012.12345678", "0.00000001")).toBe("123456789012.12345677");
    expect(subtractExact("0.1", "0.3")).toBe("-0.2");
    expect(subtractExact("-5", "-5")).toBe("0");
    expect(subtractExact("10", "-2.5")).toBe("12.5");
  });

  // The signed difference and its share (one decimal, rounded half away from zero); a previous zero has no
  // share; no difference says so in words.
  it.each([
    ["1120", "1000", "up", "+€120.00 (+12%)"],
    ["880", "1000", "down", "-€120.00 (−12%)"],
    ["2", "3", "down", "-€1.00 (−33.3%)"],
    ["1.0005", "1", "up", "+€0.0005 (+0.1%)"],
    ["50", "0", "up", "+€50.00"],
    ["0", "0", "same", "no change"],
    // A negative base (GGR the player won) keeps the direction of the difference: from −100 (the player won
    // 100) to +50 (the house won 50) is up by 150, +150% of the base's size.
    ["50", "-100", "up", "+€150.00 (+150%)"],
  ])("money: %s against %s is %s, %s", (now, before, direction, text) => {
    expect(moneyChange(now, before, "EUR", AGAINST)).toEqual({ direction, text: `${text} vs ${AGAINST}` });
  });

  it("counts", () => {
    expect(countChange(12, 10, AGAINST)).toEqual({ direction: "up", text: "+2 (+20%) vs previous 30 days" });
    expect(countChange(0, 3, AGAINST)).toEqual({ direction: "down", text: "−3 (−100%) vs previous 30 days" });
    expect(countChange(4, 0, AGAINST).text).toBe("+4 vs previous 30 days");
  });
});
