"use client";

import { useQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { periodRange, summaryFigures } from "@/features/players/client/period-summary";
import { summaryPeriodSearchParams } from "@/features/players/client/player-sections";
import { type PlayerPeriodSummaryData, playerQueries } from "@/features/players/client/queries";
import type { TimeZoneChoice } from "@/platform/format/days";
import type { SummaryPeriod } from "@/platform/schemas/enums";
import { TitledCard } from "../../../platform/ui/card.tsx";
import { ErrorState } from "../../../platform/ui/error-state.tsx";
import { SegmentedControl } from "../../../platform/ui/segmented-control.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";
import { ChangeText } from "./change-text.tsx";
import { DateValue } from "./date-value.tsx";
import { Tile } from "./money-panels.tsx";

const PERIODS: readonly { value: SummaryPeriod; label: string }[] = [
  { value: "30d", label: "30 days" },
  { value: "90d", label: "90 days" },
  { value: "365d", label: "365 days" },
  { value: "all", label: "All time" },
];

/** The Overview's figures for a period chosen in the URL (`?period=`), exact as the API serves them. */
export function PeriodSummary({ playerId, tz }: { playerId: string; tz: TimeZoneChoice }) {
  const [{ period }, setPeriod] = useQueryStates(summaryPeriodSearchParams, {
    history: "push",
    scroll: false,
  });
  const summary = useQuery(playerQueries.playerSummary(playerId, period));
  const data = summary.data;
  return (
    <TitledCard
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
    >
      {summary.isError && !data ? (
        <ErrorState title="Could not load the summary" query={summary} />
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
    </TitledCard>
  );
}

/** The figures: each linked to its transactions, with its change against the previous period; then the dates. */
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
  return (
    <dl
      aria-busy={refreshing}
      data-testid="period-summary"
      data-period={s.period}
      className={`grid grid-cols-2 gap-3 p-4 transition-opacity sm:px-5 lg:grid-cols-5 ${refreshing ? "opacity-60" : ""}`}
    >
      {summaryFigures(playerId, s).map((f) => (
        <Tile
          key={f.testId}
          label={f.label}
          testId={f.testId}
          note={f.note}
          change={f.change ? <ChangeText change={f.change} /> : undefined}
          href={f.href}
          linkLabel={f.linkLabel}
        >
          {f.value}
        </Tile>
      ))}
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
