import { describe, expect, it } from "vitest";
import {
  type BookState,
  type KeptBook,
  PortfolioBookCache,
  playersToCompute,
} from "./portfolio-book-cache.ts";

const DATABASE = "16384";
const NOW = { rules: "{}", day: "2026-06-30", asOf: 1_000 };

function kept(overrides: Partial<KeptBook> = {}): KeptBook {
  return {
    ...NOW,
    database: DATABASE,
    tail: 10n,
    ids: ["A", "B", "C"],
    players: new Map([
      ["A", { json: "{a}", validUntil: 5_000 }],
      ["B", { json: "{b}", validUntil: 2_000 }],
      ["C", { json: "{c}", validUntil: 5_000 }],
    ]),
    joined: new TextEncoder().encode("{a},{b},{c}"),
    ...overrides,
  };
}

const state = (overrides: Partial<BookState> = {}): BookState => ({
  database: DATABASE,
  tail: 12n,
  ids: ["A", "B", "C"],
  changed: new Set<string>(),
  ...overrides,
});

describe("playersToCompute", () => {
  it("computes nobody whose row is kept, unchanged and still current", () => {
    expect(playersToCompute(kept(), state(), NOW)).toEqual([]);
  });

  it("computes the changed, the new and those whose instant has come", () => {
    expect(playersToCompute(kept(), state({ changed: new Set(["C", "Z"]) }), NOW)).toEqual(["C"]);
    expect(playersToCompute(kept(), state({ ids: ["A", "B", "C", "D"] }), NOW)).toEqual(["D"]);
    expect(playersToCompute(kept(), state(), { ...NOW, asOf: 2_000 })).toEqual(["B"]);
  });

  it("computes the whole book when the kept one cannot be compared", () => {
    const all = ["A", "B", "C"];
    expect(playersToCompute(undefined, state(), NOW)).toEqual(all);
    expect(playersToCompute(kept(), state({ changed: "all" }), NOW)).toEqual(all);
    expect(playersToCompute(kept(), state({ database: "99999" }), NOW)).toEqual(all);
    expect(playersToCompute(kept(), state({ tail: 9n }), NOW)).toEqual(all);
    expect(playersToCompute(kept(), state(), { ...NOW, rules: '{"churn_days":3}' })).toEqual(all);
    expect(playersToCompute(kept(), state(), { ...NOW, day: "2026-07-01" })).toEqual(all);
    expect(playersToCompute(kept(), state(), { ...NOW, asOf: 999 })).toEqual(all);
  });
});

describe("PortfolioBookCache", () => {
  it("keeps the books read most recently, at most its capacity", () => {
    const cache = new PortfolioBookCache(2);
    cache.set("m1", kept());
    cache.set("m2", kept());
    expect(cache.get("m1")).toBeDefined(); // m1 is now the most recent
    cache.set("m3", kept());
    expect(cache.size).toBe(2);
    expect(cache.get("m2")).toBeUndefined();
    expect(cache.get("m1")).toBeDefined();
    expect(cache.get("m3")).toBeDefined();
  });

  it("keeps nothing with no capacity", () => {
    const cache = new PortfolioBookCache(0);
    cache.set("m1", kept());
    expect(cache.get("m1")).toBeUndefined();
  });
});
