import { describe, expect, it } from "vitest";
import { planTransactionCounts } from "./plan-transaction-counts.ts";

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);

describe("planTransactionCounts", () => {
  it("sums to exactly M, player 7 is the largest with at least 10%, at 10M at least 1,000,000", () => {
    const counts = planTransactionCounts(100_000, 10_000_000, 20261121);
    expect(counts).toHaveLength(100_001); // index 0 unused: players are numbered from 1
    expect(sum(counts)).toBe(10_000_000);
    expect(Math.max(...counts)).toBe(counts[7]);
    expect(counts[7]).toBeGreaterThanOrEqual(1_000_000);
  });

  it("has a long tail of small players, a few heavy ones, and players who never played", () => {
    const counts = planTransactionCounts(100_000, 10_000_000, 1).slice(1);
    const sorted = [...counts].sort((a, b) => a - b);
    const median = sorted[Math.floor(sorted.length / 2)] ?? 0;
    expect(median).toBeGreaterThan(0);
    expect(median).toBeLessThan(100);
    expect(counts.filter((c) => c > 1_000).length).toBeGreaterThanOrEqual(50);
    expect(counts.filter((c) => c > 1_000).length).toBeLessThanOrEqual(200);
    expect(counts.filter((c) => c === 0).length).toBeGreaterThan(1_000);
  });

  it("is deterministic per seed", () => {
    expect(planTransactionCounts(500, 50_000, 3)).toEqual(planTransactionCounts(500, 50_000, 3));
    expect(planTransactionCounts(500, 50_000, 3)).not.toEqual(planTransactionCounts(500, 50_000, 4));
  });

  it("handles tiny data sets", () => {
    expect(planTransactionCounts(1, 10, 1)).toEqual([0, 10]);
    expect(sum(planTransactionCounts(3, 0, 1))).toBe(0);
    for (const [n, m] of [
      [2, 5],
      [7, 100],
      [30, 1_000],
    ] as const) {
      const counts = planTransactionCounts(n, m, 9);
      expect(sum(counts)).toBe(m);
      expect(Math.max(...counts)).toBeGreaterThanOrEqual(m / 10);
    }
  });
});
