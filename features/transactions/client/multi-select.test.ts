import { describe, expect, it } from "vitest";
import { selectionSummary, shownOptions, toggleValue } from "./multi-select.ts";

const OPTIONS = [
  { value: "deposit", label: "Deposit", count: 3 },
  { value: "withdrawal", label: "Withdrawal", count: 1 },
  { value: "bet", label: "Bet" },
];

describe("multi-select rules", () => {
  it("toggles a value in and out, keeping the order of ticking", () => {
    expect(toggleValue([], "bet")).toEqual(["bet"]);
    expect(toggleValue(["bet"], "deposit")).toEqual(["bet", "deposit"]);
    expect(toggleValue(["bet", "deposit"], "bet")).toEqual(["deposit"]);
  });

  it("summarises none, one, two and more than two", () => {
    expect(selectionSummary([], OPTIONS)).toBe("Any");
    expect(selectionSummary(["deposit"], OPTIONS)).toBe("Deposit");
    expect(selectionSummary(["deposit", "bet"], OPTIONS)).toBe("Deposit, Bet");
    expect(selectionSummary(["deposit", "bet", "withdrawal"], OPTIONS)).toBe("3 selected");
    // A value without an option reads as itself.
    expect(selectionSummary(["win"], OPTIONS)).toBe("win");
  });

  it("shows ticked values the player does not have after the options, with a count of 0", () => {
    expect(shownOptions(OPTIONS, ["bet"])).toEqual(OPTIONS);
    expect(shownOptions(OPTIONS, ["win", "deposit"])).toEqual([
      ...OPTIONS,
      { value: "win", label: "win", count: 0 },
    ]);
    expect(shownOptions([], [])).toEqual([]);
  });
});
