import { describe, expect, it } from "vitest";
import { formatDate } from "@/platform/format/dates";
import { formatMoney } from "@/platform/format/money";
import { EMPTY_PERIOD_FIGURES } from "@/test/support/period-figures";
import { periodRange, summaryFigures } from "./period-summary.ts";
import type { PlayerPeriodSummaryData } from "./queries.ts";

type Figures = NonNullable<PlayerPeriodSummaryData["previous"]>;

function figures(over: Partial<Figures> = {}): Figures {
  return {
    ...EMPTY_PERIOD_FIGURES,
    from: "2026-10-22T00:00:00Z",
    to: "2026-11-21T00:00:00Z",
    deposits: { count: 2, sum: "150.00", average: "75.00000000" },
    withdrawals: { count: 1, sum: "40.00", average: "40.00000000" },
    net_deposits: "110.00",
    bets: { count: 3, sum: "60.00" },
    wins: { count: 1, sum: "20.00" },
    gross_gaming_revenue: "40.00",
    ...over,
  } as Figures;
}

function summary(over: Partial<PlayerPeriodSummaryData> = {}): PlayerPeriodSummaryData {
  return {
    player_id: "P000007",
    period: "30d",
    currency: "EUR",
    ...figures(),
    previous: figures({ deposits: { count: 1, sum: "100.00", average: "100.00000000" } }),
    ...over,
  } as PlayerPeriodSummaryData;
}

describe("periodRange", () => {
  it("names the first and the last whole UTC day: `to` is the exclusive midnight after", () => {
    expect(periodRange(summary())).toBe(
      `${formatDate("2026-10-22T00:00:00Z", "utc")} – ${formatDate("2026-11-20T00:00:00.000Z", "utc")}, whole UTC days; completed transactions.`,
    );
  });
  it("says whole history when the period has no bounds", () => {
    expect(periodRange(summary({ period: "all", from: null, to: null, previous: null }))).toBe(
      "The player's whole history.",
    );
  });
});

describe("summaryFigures", () => {
  it("lists the eight linked figures in display order", () => {
    expect(summaryFigures("P000007", summary()).map((f) => f.testId)).toEqual([
      "summary-deposits",
      "summary-withdrawals",
      "summary-net-deposits",
      "summary-bets",
      "summary-wins",
      "summary-ggr",
      "summary-bonus",
      "summary-counts",
    ]);
  });

  it("formats each value, its count in words with one/many, and the average in minor units", () => {
    const [deposits, , net, bets, , , bonus, counts] = summaryFigures("P000007", summary());
    expect(deposits?.value).toBe(formatMoney("150.00", "EUR"));
    expect(deposits?.note).toBe(
      `2 deposits, average ${formatMoney("75.00000000", "EUR", { minorUnits: true })}`,
    );
    expect(net?.note).toBe("Deposits minus withdrawals");
    expect(bets?.note).toBe("3 bets");
    expect(bonus?.note).toBe("0 grants");
    expect(counts?.value).toBe("7");
    const none = summaryFigures("P000007", summary({ withdrawals: { count: 1, sum: "0", average: null } }));
    expect(none[1]?.note).toBe("1 withdrawal, no average");
  });

  it("compares with the previous period of the same length, and not at all for all time", () => {
    const [deposits, withdrawals, , , , , , counts] = summaryFigures("P000007", summary());
    expect(deposits?.change).toEqual({
      direction: "up",
      text: `${formatMoney("50.00", "EUR", { signed: true })} (+50%) vs previous 30 days`,
    });
    expect(withdrawals?.change).toEqual({ direction: "same", text: "no change vs previous 30 days" });
    expect(counts?.change?.text).toBe("+1 (+16.7%) vs previous 30 days");
    const all = summaryFigures("P000007", summary({ period: "all", from: null, to: null, previous: null }));
    expect(all.every((f) => f.change === undefined)).toBe(true);
  });

  it("links each figure to its types over the period's days, completed, in UTC", () => {
    const figs = summaryFigures("P000007", summary());
    expect(figs[0]?.href).toBe(
      "/players/P000007?section=transactions&event_type=deposit&status=completed&from=2026-10-22&to=2026-11-20&tz=utc",
    );
    expect(figs[0]?.linkLabel).toBe("show the deposits of this period");
    expect(figs[7]?.href).toContain("event_type=deposit&event_type=withdrawal&event_type=bet&event_type=win");
    expect(figs[7]?.linkLabel).toBe("show the transactions of this period");
    const all = summaryFigures("P000007", summary({ period: "all", from: null, to: null, previous: null }));
    expect(all[5]?.href).toBe(
      "/players/P000007?section=transactions&event_type=bet&event_type=win&status=completed&tz=utc",
    );
  });
});
