import { countChange, moneyChange, type PeriodChange } from "@/features/players/client/period-change";
import type { PlayerPeriodSummaryData } from "@/features/players/client/queries";
import type { EventTypeValue as EventType } from "@/features/transactions/client";
import { drillDownHref, periodDays } from "@/features/transactions/client";
import { formatDate } from "@/platform/format/dates";
import { formatCount, formatMoney } from "@/platform/format/money";
import type { SummaryPeriod } from "@/platform/schemas/enums";

const DAY_MS = 86_400_000;

/** "Oct 22, 2026 – Nov 20, 2026 (UTC days)": the API's `to` is the exclusive midnight after the last day. */
export function periodRange(s: PlayerPeriodSummaryData): string {
  if (!s.from || !s.to) return "The player's whole history.";
  const lastDay = new Date(Date.parse(s.to) - DAY_MS).toISOString();
  return `${formatDate(s.from, "utc")} – ${formatDate(lastDay, "utc")}, whole UTC days; completed transactions.`;
}

/** What each figure's change is measured against: the previous period of the same length (none for all time). */
const AGAINST: Record<SummaryPeriod, string> = {
  "30d": "previous 30 days",
  "90d": "previous 90 days",
  "365d": "previous 365 days",
  all: "",
};

/** One linked figure of the summary: its value, the line under it, its change and the transactions behind it. */
export interface SummaryFigure {
  label: string;
  testId: string;
  value: string;
  note: string;
  /** Against the previous period; undefined for all time (no period before it). */
  change: PeriodChange | undefined;
  href: string;
  linkLabel: string;
}

type Figures = NonNullable<PlayerPeriodSummaryData["previous"]>;

const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
// Averages are derived (sum / count to 8 places): shown in the currency's minor unit like other amounts.
const average = (v: string | null, currency: string) =>
  v === null ? "no average" : `average ${formatMoney(v, currency, { minorUnits: true })}`;
const flowCount = (f: Figures) => f.deposits.count + f.withdrawals.count + f.bets.count + f.wins.count;

interface MoneyFigure {
  label: string;
  testId: string;
  amount: (f: Figures) => string;
  note: (f: Figures, currency: string) => string;
  types: EventType[];
  what: string;
}

type Flow = "deposits" | "withdrawals" | "bets" | "wins" | "bonus_granted";

/** A figure that sums one type: its count in words, and its average for money put in or taken out. */
function flowFigure(
  label: string,
  testId: string,
  flow: Flow,
  [one, many]: readonly [string, string],
  type: EventType,
  what: string = flow,
): MoneyFigure {
  const note = (f: Figures, currency: string) => {
    const n = count(f[flow].count, one, many);
    return flow === "deposits" || flow === "withdrawals" ? `${n}, ${average(f[flow].average, currency)}` : n;
  };
  return { label, testId, amount: (f) => f[flow].sum, note, types: [type], what };
}

/** The money figures, in display order: where each amount is, the line under it, and the types behind it. */
const MONEY_FIGURES: readonly MoneyFigure[] = [
  flowFigure("Deposits", "summary-deposits", "deposits", ["deposit", "deposits"], "deposit"),
  flowFigure(
    "Withdrawals",
    "summary-withdrawals",
    "withdrawals",
    ["withdrawal", "withdrawals"],
    "withdrawal",
  ),
  {
    label: "Net deposits",
    testId: "summary-net-deposits",
    amount: (f) => f.net_deposits,
    note: () => "Deposits minus withdrawals",
    types: ["deposit", "withdrawal"],
    what: "deposits and withdrawals",
  },
  flowFigure("Bets", "summary-bets", "bets", ["bet", "bets"], "bet"),
  flowFigure("Wins", "summary-wins", "wins", ["win", "wins"], "win"),
  {
    label: "Gross gaming revenue",
    testId: "summary-ggr",
    amount: (f) => f.gross_gaming_revenue,
    note: () => "Bets minus wins: above zero when the house won",
    types: ["bet", "win"],
    what: "bets and wins",
  },
  flowFigure(
    "Bonus granted",
    "summary-bonus",
    "bonus_granted",
    ["grant", "grants"],
    "bonus",
    "bonus transactions",
  ),
];

/**
 * The summary's linked figures, in display order: the money figures, then the count of transactions. Each is
 * compared with the same figure of the previous period of the same length (none for all time), and a click on
 * one opens its transactions: this period's days, its types, completed.
 */
export function summaryFigures(playerId: string, s: PlayerPeriodSummaryData): SummaryFigure[] {
  const p = s.previous;
  const against = AGAINST[s.period];
  const days = periodDays(s.from, s.to);
  const link = (types: EventType[], what: string) => ({
    href: drillDownHref(playerId, { types, ...days }),
    linkLabel: `show the ${what} of this period`,
  });
  const money = MONEY_FIGURES.map(
    (f): SummaryFigure => ({
      label: f.label,
      testId: f.testId,
      value: formatMoney(f.amount(s), s.currency),
      note: f.note(s, s.currency),
      change: p ? moneyChange(f.amount(s), f.amount(p), s.currency, against) : undefined,
      ...link(f.types, f.what),
    }),
  );
  const transactions: SummaryFigure = {
    label: "Transactions",
    testId: "summary-counts",
    value: formatCount(flowCount(s)),
    note: "Completed deposits, withdrawals, bets and wins",
    change: p ? countChange(flowCount(s), flowCount(p), against) : undefined,
    ...link(["deposit", "withdrawal", "bet", "win"], "transactions"),
  };
  return [...money, transactions];
}
