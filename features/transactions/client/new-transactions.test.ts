import { describe, expect, it } from "vitest";
import { newTransactionCount, newTransactionsLabel } from "./new-transactions.ts";

const base = { shownTotal: 100, shownAt: 1_000, placeholder: false, latestTotal: 103, latestAt: 2_000 };

describe("newTransactionCount", () => {
  it("is the latest total minus the total shown", () => {
    expect(newTransactionCount(base)).toBe(3);
  });

  it("is 0 when the latest total was read before the list on screen (after show)", () => {
    expect(newTransactionCount({ ...base, latestAt: 1_000 })).toBe(0);
    expect(newTransactionCount({ ...base, latestAt: 999 })).toBe(0);
  });

  it("is 0 without a latest total, for a placeholder list, and when the total went down", () => {
    expect(newTransactionCount({ ...base, latestTotal: undefined, latestAt: 0 })).toBe(0);
    expect(newTransactionCount({ ...base, shownTotal: undefined })).toBe(0);
    expect(newTransactionCount({ ...base, placeholder: true })).toBe(0);
    expect(newTransactionCount({ ...base, latestTotal: 99 })).toBe(0);
  });
});

describe("newTransactionsLabel", () => {
  it("counts in words", () => {
    expect(newTransactionsLabel(1)).toBe("1 new transaction");
    expect(newTransactionsLabel(3)).toBe("3 new transactions");
    expect(newTransactionsLabel(1204)).toBe("1,204 new transactions");
  });
});
