"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { drillDownHref, periodDays } from "@/lib/client/drill-down";
import { countChange, moneyChange } from "@/lib/client/period-change";
import { summaryPeriodSearchParams } from "@/lib/client/player-sections";
import { queries } from "@/lib/client/queries";
import type { EventTypeValue as EventType, TimeZoneChoice } from "@/lib/client/transaction-url-state";
import type { PlayerPeriodSummaryData } from "@/lib/client/wire";
import { formatDate } from "@/lib/format/dates";
import { formatCount, formatMoney } from "@/lib/format/money";
import type { SummaryPeriod } from "@/lib/schemas/enums";
import { ErrorState } from "../error-state.tsx";
import { Card, CardHeader } from "../ui/card.tsx";
import { SegmentedControl } from "../ui/segmented-control.tsx";
import { Skeleton } from "../ui/skeleton.tsx";
import { ChangeText } from "./change-text.tsx";
import { DateValue } from "./date-value.tsx";
import { Tile } from "./money-panels.tsx";

const PERIODS: readonly { value: SummaryPeriod; label: string }[] = [
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "365 days" },
  { value: "all", label: "All time" },
];

const DAY_MS = 86_400_000;

/** "Oct 22, 2026 – Nov 20, 2026 (UTC days)": the API's `to` is the exclusive midnight after the last day. */
function periodRange(s: PlayerPeriodSummaryData): string {
  if (!s.from || !s.to) return "The player's whole history.";
  const lastDay = new Date(Date.parse(s.to) - DAY_MS).toISOString();
  return `${formatDate(s.from, "utc")} – ${formatDate(lastDay, "utc")}, whole UTC days; completed transactions.`;
}

/** The Overview's figures for a period chosen in the URL (`?period=`), exact as the API serves them. */
export function PeriodSummary({ playerId, tz }: { playerId: string; tz: TimeZoneChoice }) {
  const [{ period }, setPeriod] = useQueryStates(summaryPeriodSearchParams, {
    history: "push",
    scroll: false,
  });
  const summary = useQuery(queries.playerSummary(playerId, period));
  const data = summary.data;
  return (
    <Card aria-labelledby="summary-title">
      <CardHeader
        titleId="summary-title"
        title="Summary"
        description={data && !summary.isPlaceholderData ? periodRange(data) : "Loading the period…"}
        actions={
          <SegmentedControl
            legend="Summary period"
            name="summary-period"
            options={PERIODS}
            value={period}
            onChange={(next) => void setPeriod({ period: next })}
          />
        }
      />
      {summary.isError && !data ? (
        <ErrorState
          title="Could not load the summary"
          error={summary.error}
          onRetry={() => void summary.refetch()}
          retrying={summary.isFetching}
        />
      ) : data ? (
        <SummaryFigures playerId={playerId} summary={data} tz={tz} refreshing={summary.isPlaceholderData} />
      ) : (
        <div aria-busy="true" className="grid grid-cols-2 gap-3 p-4 sm:px-5 lg:grid-cols-5">
          <p role="status" className="sr-only">
            Loading the summary…
          </p>
          {[0, 1, 2, 3, 4, 5, 6, 7, 8, 9].map((i) => (
            <Skeleton key={i} className="h-20 w-full" />
          ))}
        </div>
      )}
    </Card>
  );
}

const AGAINST: Record<SummaryPeriod, string> = {
  "30d": "previous 30 days",
  "90d": "previous 90 days",
  "365d": "previous 365 days",
  all: "",
};

function SummaryFigures({
  playerId,
  summary: s,
  tz,
  refreshing,
}: {
  playerId: string;
  summary: PlayerPeriodSummaryData;
  tz: TimeZoneChoice;
  refreshing: boolean;
}) {
  const money = (v: string) => formatMoney(v, s.currency);
  const count = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;
  // Averages are derived (sum / count to 8 places): shown in the currency's minor unit like other amounts.
  const average = (v: string | null) =>
    v === null ? "no average" : `average ${formatMoney(v, s.currency, { minorUnits: true })}`;
  // Each figure against the same figure of the previous period of the same length (none for all time).
  const p = s.previous;
  const against = AGAINST[s.period];
  const moneyVs = (now: string, before: string | undefined) =>
    before === undefined ? undefined : <ChangeText change={moneyChange(now, before, s.currency, against)} />;
  const countVs = (now: number, before: number | undefined) =>
    before === undefined ? undefined : <ChangeText change={countChange(now, before, against)} />;
  // A click (or Enter) on a figure opens its transactions: this period's days, its types, completed.
  const days = periodDays(s.from, s.to);
  const show = (types: EventType[], what: string) => ({
    href: drillDownHref(playerId, { types, ...days }),
    linkLabel: `show the ${what} of this period`,
  });
  return (
    <dl
      aria-busy={refreshing}
      data-testid="period-summary"
      data-period={s.period}
      className={`grid grid-cols-2 gap-3 p-4 transition-opacity sm:px-5 lg:grid-cols-5 ${refreshing ? "opacity-60" : ""}`}
    >
      <Tile
        label="Deposits"
        testId="summary-deposits"
        note={`${count(s.deposits.count, "deposit", "deposits")}, ${average(s.deposits.average)}`}
        change={moneyVs(s.deposits.sum, p?.deposits.sum)}
        {...show(["deposit"], "deposits")}
      >
        {money(s.deposits.sum)}
      </Tile>
      <Tile
        label="Withdrawals"
        testId="summary-withdrawals"
        note={`${count(s.withdrawals.count, "withdrawal", "withdrawals")}, ${average(s.withdrawals.average)}`}
        change={moneyVs(s.withdrawals.sum, p?.withdrawals.sum)}
        {...show(["withdrawal"], "withdrawals")}
      >
        {money(s.withdrawals.sum)}
      </Tile>
      <Tile
        label="Net deposits"
        testId="summary-net-deposits"
        note="Deposits minus withdrawals"
        change={moneyVs(s.net_deposits, p?.net_deposits)}
        {...show(["deposit", "withdrawal"], "deposits and withdrawals")}
      >
        {money(s.net_deposits)}
      </Tile>
      <Tile
        label="Bets"
        testId="summary-bets"
        note={count(s.bets.count, "bet", "bets")}
        change={moneyVs(s.bets.sum, p?.bets.sum)}
        {...show(["bet"], "bets")}
      >
        {money(s.bets.sum)}
      </Tile>
      <Tile
        label="Wins"
        testId="summary-wins"
        note={count(s.wins.count, "win", "wins")}
        change={moneyVs(s.wins.sum, p?.wins.sum)}
        {...show(["win"], "wins")}
      >
        {money(s.wins.sum)}
      </Tile>
      <Tile
        label="Gross gaming revenue"
        testId="summary-ggr"
        note="Bets minus wins: above zero when the house won"
        change={moneyVs(s.gross_gaming_revenue, p?.gross_gaming_revenue)}
        {...show(["bet", "win"], "bets and wins")}
      >
        {money(s.gross_gaming_revenue)}
      </Tile>
      <Tile
        label="Bonus granted"
        testId="summary-bonus"
        note={count(s.bonus_granted.count, "grant", "grants")}
        change={moneyVs(s.bonus_granted.sum, p?.bonus_granted.sum)}
        {...show(["bonus"], "bonus transactions")}
      >
        {money(s.bonus_granted.sum)}
      </Tile>
      <Tile
        label="Transactions"
        testId="summary-counts"
        note="Completed deposits, withdrawals, bets and wins"
        change={countVs(
          s.deposits.count + s.withdrawals.count + s.bets.count + s.wins.count,
          p ? p.deposits.count + p.withdrawals.count + p.bets.count + p.wins.count : undefined,
        )}
        {...show(["deposit", "withdrawal", "bet", "win"], "transactions")}
      >
        {formatCount(s.deposits.count + s.withdrawals.count + s.bets.count + s.wins.count)}
      </Tile>
      <Tile label="First activity" testId="summary-first-activity">
        <span className="text-sm font-normal">
          <DateValue iso={s.first_activity} tz={tz} empty="None in this period" />
        </span>
      </Tile>
      <Tile label="Last activity" testId="summary-last-activity">
        <span className="text-sm font-normal">
          <DateValue iso={s.last_activity} tz={tz} empty="None in this period" />
        </span>
      </Tile>
    </dl>
  );
}
