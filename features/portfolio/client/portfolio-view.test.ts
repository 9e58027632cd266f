import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  compareDecimal,
  daysAgo,
  filterPortfolio,
  flagCounts,
  flagDescription,
  nextSort,
  PORTFOLIO_SORTS,
  sortPortfolio,
} from "./portfolio-view.ts";
import type { PortfolioData, PortfolioPlayerData } from "./queries.ts";

const fig = (current: string) => ({ current, previous: "0", change: current });

function player(id: string, over: Partial<PortfolioPlayerData> = {}): PortfolioPlayerData {
  return {
    id,
    name: `Name ${id}`,
    currency: "EUR",
    total_balance: "0",
    blocked: false,
    kyc_status: "approved",
    withdrawal_status: "allowed",
    segments: [],
    deposits: fig("0"),
    withdrawals: fig("0"),
    net_deposits: fig("0"),
    ggr: fig("0"),
    days_since_last_deposit: null,
    days_since_last_activity: null,
    pending_withdrawals: { count: 0, amount: "0", oldest: null },
    largest_withdrawal_7d: null,
    flags: [],
    ...over,
  };
}

const RULES: PortfolioData["flag_rules"] = {
  churn_days: 30,
  big_withdrawal_amounts: [{ currency: "EUR", amount: "5000" }],
  big_withdrawal_percent: 50,
  deposit_spike_factor: 3,
};

describe("compareDecimal", () => {
  it("orders decimal strings exactly, beyond a double's precision", () => {
    expect(compareDecimal("123456789012.12345679", "123456789012.12345678")).toBe(1);
    expect(compareDecimal("-0.5", "0.25")).toBe(-1);
    expect(compareDecimal("10", "9.99999999")).toBe(1);
    expect(compareDecimal("2.50", "2.5")).toBe(0);
    expect(compareDecimal("-10", "-9")).toBe(-1);
  });
});

describe("sortPortfolio", () => {
  const rows = [
    player("P1", { total_balance: "9007199254740993", name: "Zoé", days_since_last_deposit: 5 }),
    player("P2", { total_balance: "9007199254740992", name: "anna", days_since_last_deposit: null }),
    player("P3", { total_balance: "-1", name: "Bob", days_since_last_deposit: 40, flags: ["churn_risk"] }),
  ];
  it("sorts money exactly both ways, ties by id", () => {
    expect(sortPortfolio(rows, "balance", "desc").map((p) => p.id)).toEqual(["P1", "P2", "P3"]);
    expect(sortPortfolio(rows, "balance", "asc").map((p) => p.id)).toEqual(["P3", "P2", "P1"]);
  });
  it("sorts names, and puts rows without a value last either way", () => {
    expect(sortPortfolio(rows, "player", "asc").map((p) => p.id)).toEqual(["P2", "P3", "P1"]);
    expect(sortPortfolio(rows, "last_deposit", "desc").map((p) => p.id)).toEqual(["P3", "P1", "P2"]);
    expect(sortPortfolio(rows, "last_deposit", "asc").map((p) => p.id)).toEqual(["P1", "P3", "P2"]);
    expect(sortPortfolio(rows, "flags", "desc").map((p) => p.id)).toEqual(["P3", "P1", "P2"]);
  });
  it("gives the order of an exact pairwise comparison, whatever the amounts' scales and signs (property)", () => {
    // The reference compares every pair afresh, as the first version did; the sort works each row's value out once.
    const decimal = fc
      .tuple(fc.boolean(), fc.bigInt({ min: 0n, max: 10n ** 20n }), fc.integer({ min: 0, max: 8 }))
      .map(([negative, units, scale]) => {
        const digits = units.toString().padStart(scale + 1, "0");
        const text = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
        return negative && units !== 0n ? `-${text}` : text;
      });
    const row = fc.record({
      name: fc.constantFrom("Zoé", "zoe", "Anna", "Bob", "Émile"),
      total_balance: decimal,
      deposits: decimal,
      days: fc.option(fc.integer({ min: 0, max: 400 })),
    });
    const reference = (rows: PortfolioPlayerData[], dir: "asc" | "desc") =>
      [...rows].sort(
        (x, y) =>
          (dir === "asc" ? 1 : -1) * compareDecimal(x.total_balance, y.total_balance) ||
          x.id.localeCompare(y.id, "en"),
      );
    fc.assert(
      fc.property(
        fc.array(row, { maxLength: 60 }),
        fc.constantFrom("asc" as const, "desc" as const),
        (specs, dir) => {
          const rows = specs.map((r, i) =>
            player(`P${String(i).padStart(6, "0")}`, {
              name: r.name,
              total_balance: r.total_balance,
              deposits: fig(r.deposits),
              days_since_last_deposit: r.days,
            }),
          );
          expect(sortPortfolio(rows, "balance", dir).map((p) => p.id)).toEqual(
            reference(rows, dir).map((p) => p.id),
          );
          // Every other column keeps every row once, in an order that is a total one (sorting twice changes nothing).
          for (const sort of PORTFOLIO_SORTS) {
            const once = sortPortfolio(rows, sort, dir);
            expect(new Set(once.map((p) => p.id)).size).toBe(rows.length);
            expect(sortPortfolio(once, sort, dir)).toEqual(once);
          }
        },
      ),
    );
  });
  it("filters by flag and counts each flag", () => {
    expect(filterPortfolio(rows, "churn_risk").map((p) => p.id)).toEqual(["P3"]);
    expect(filterPortfolio(rows, null)).toHaveLength(3);
    expect(flagCounts(rows)).toEqual({
      churn_risk: 1,
      big_withdrawal: 0,
      pending_withdrawal_24h: 0,
      deposit_spike: 0,
    });
  });
});

describe("the view's words", () => {
  it("explains each flag with the server's thresholds", () => {
    expect(flagDescription("churn_risk", RULES)).toContain("30 days or more");
    expect(flagDescription("big_withdrawal", RULES, "eur")).toContain("above 5000 EUR, or above 50%");
    expect(flagDescription("big_withdrawal", RULES)).toContain(
      "the amount set for its currency (5000 EUR, …)",
    );
    // A currency without an amount: only the share rule.
    expect(flagDescription("big_withdrawal", RULES, "JPY")).toBe(
      "A withdrawal in the last 7 days above 50% of what the player held before it.",
    );
    expect(flagDescription("deposit_spike", RULES)).toContain("3×");
    expect(flagDescription("pending_withdrawal_24h", RULES)).toContain("24 hours");
  });
  it("says how long ago, and toggles a column's direction", () => {
    expect([daysAgo(null), daysAgo(0), daysAgo(1), daysAgo(12)]).toEqual([
      "never",
      "today",
      "1 day ago",
      "12 days ago",
    ]);
    expect(nextSort({ sort: "flags", dir: "desc" }, "player")).toEqual({ sort: "player", dir: "asc" });
    expect(nextSort({ sort: "player", dir: "asc" }, "player")).toEqual({ sort: "player", dir: "desc" });
    expect(nextSort({ sort: "flags", dir: "desc" }, "balance")).toEqual({ sort: "balance", dir: "desc" });
  });
});
