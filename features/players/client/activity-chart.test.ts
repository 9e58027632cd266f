import { describe, expect, it } from "vitest";
import { activityChartModel, activityChartRows, activityHref, monthLabel } from "./activity-chart.ts";
import type { MonthlyActivityData } from "./queries.ts";

const flow = (amount: string, count: number) => ({ amount, count });

function month(m: string, over: Partial<MonthlyActivityData["months"][number]> = {}) {
  return {
    month: m,
    deposits: flow("0", 0),
    withdrawals: flow("0", 0),
    bets: flow("0", 0),
    wins: flow("0", 0),
    net_deposits: "0",
    gross_gaming_revenue: "0",
    partial: false,
    ...over,
  } as MonthlyActivityData["months"][number];
}

function activity(months: MonthlyActivityData["months"], currency = "EUR"): MonthlyActivityData {
  return { player_id: "P000001", currency, from: "", to: "", months } as unknown as MonthlyActivityData;
}

describe("monthLabel", () => {
  it("names a UTC month short for the axis and long for the table", () => {
    const short = new Intl.DateTimeFormat(undefined, { timeZone: "UTC", month: "short", year: "2-digit" });
    const long = new Intl.DateTimeFormat(undefined, { timeZone: "UTC", month: "long", year: "numeric" });
    expect(monthLabel("2026-01", "short")).toBe(short.format(Date.UTC(2026, 0, 1)));
    expect(monthLabel("2026-01", "long")).toBe(long.format(Date.UTC(2026, 0, 1)));
    // The first of the month at midnight UTC, in any time zone of the machine: never the month before.
    expect(monthLabel("2026-03", "long")).toContain("2026");
    expect(monthLabel("2026-03", "long")).not.toBe(monthLabel("2026-02", "long"));
  });
});

describe("activityChartRows", () => {
  it("plots each flow's amount as a number and marks the partial month's axis label", () => {
    const rows = activityChartRows(
      activity([
        month("2026-10", { deposits: flow("100.50", 2), wins: flow("7", 1) }),
        month("2026-11", { bets: flow("12.25", 3), partial: true }),
      ]),
    );
    expect(rows).toEqual([
      {
        key: "2026-10",
        month: monthLabel("2026-10", "short"),
        monthLong: monthLabel("2026-10", "long"),
        deposits: 100.5,
        withdrawals: 0,
        bets: 0,
        wins: 7,
      },
      {
        key: "2026-11",
        month: `${monthLabel("2026-11", "short")}*`,
        monthLong: monthLabel("2026-11", "long"),
        deposits: 0,
        withdrawals: 0,
        bets: 12.25,
        wins: 0,
      },
    ]);
  });
});

describe("activityChartModel", () => {
  it("finds the partial month, or none", () => {
    const with_ = activityChartModel(
      activity([month("2026-10"), month("2026-11", { partial: true })]),
      false,
    );
    expect(with_.partial?.month).toBe("2026-11");
    expect(activityChartModel(activity([month("2026-10")]), false).partial).toBeUndefined();
  });

  it("is empty only when no flow has a transaction in any month", () => {
    expect(activityChartModel(activity([month("2026-10"), month("2026-11")]), false).empty).toBe(true);
    // A count with a zero amount is still activity.
    const zeroAmount = activity([month("2026-10", { wins: flow("0", 1) })]);
    expect(activityChartModel(zeroAmount, false).empty).toBe(false);
  });

  it("spans every flow's amount with fewer ticks on a phone", () => {
    const data = activity([month("2026-10", { deposits: flow("950", 1), withdrawals: flow("120", 1) })]);
    const wide = activityChartModel(data, false);
    const narrow = activityChartModel(data, true);
    expect(wide.axis.domain).toEqual([0, 1000]);
    expect(wide.axis.ticks.length - 1).toBeLessThanOrEqual(5);
    expect(narrow.axis.ticks.length - 1).toBeLessThanOrEqual(3);
    expect(narrow.axis.ticks.length).toBeLessThan(wide.axis.ticks.length);
    expect(narrow.axis.domain[1]).toBeGreaterThanOrEqual(950);
  });

  it("labels ticks in the currency and sizes the axis for its longest label, at least 40 px", () => {
    const small = activityChartModel(activity([month("2026-10", { bets: flow("8", 1) })]), false);
    expect(small.tickLabel(0)).toContain("0");
    expect(small.axisWidth).toBe(
      Math.max(40, 12 + 7 * Math.max(...small.axis.ticks.map((t) => small.tickLabel(t).length))),
    );
    const big = activityChartModel(
      activity([month("2026-10", { bets: flow("123456789", 1) })], "JPY"),
      false,
    );
    const longest = Math.max(...big.axis.ticks.map((t) => big.tickLabel(t).length));
    expect(big.axisWidth).toBe(12 + 7 * longest);
    expect(big.axisWidth).toBeGreaterThan(40);
  });
});

describe("activityHref", () => {
  it("opens the month's completed transactions of the figure's types, in UTC", () => {
    expect(activityHref("P000007", "2026-02", "deposits")).toBe(
      "/players/P000007?section=transactions&event_type=deposit&status=completed&from=2026-02-01&to=2026-02-28&tz=utc",
    );
    expect(activityHref("P000007", "2026-02", "gross_gaming_revenue")).toBe(
      "/players/P000007?section=transactions&event_type=bet&event_type=win&status=completed&from=2026-02-01&to=2026-02-28&tz=utc",
    );
  });
});
