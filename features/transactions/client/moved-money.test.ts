import { describe, expect, it } from "vitest";
import { leftOutOfSum, moneyMoved } from "./moved-money.ts";

describe("moved money", () => {
  it("only completed money moved; pending not yet; failed and cancelled never", () => {
    expect(moneyMoved("completed")).toBe("moved");
    expect(moneyMoved("pending")).toBe("not_yet");
    expect(moneyMoved("failed")).toBe("never");
    expect(moneyMoved("cancelled")).toBe("never");
  });

  it("names each status left out of a currency's sum that has matches, in order", () => {
    const zero = { count: 0, sum: "0" };
    const c = {
      currency: "SEK",
      count: 5,
      sum: "150",
      by_status: {
        completed: { count: 2, sum: "150" },
        pending: { count: 1, sum: "70" },
        failed: { count: 1, sum: "200" },
        cancelled: zero,
      },
    };
    expect(leftOutOfSum(c)).toEqual([
      { status: "pending", count: 1, sum: "70" },
      { status: "failed", count: 1, sum: "200" },
    ]);
    expect(leftOutOfSum({ ...c, by_status: { ...c.by_status, pending: zero, failed: zero } })).toEqual([]);
  });
});
