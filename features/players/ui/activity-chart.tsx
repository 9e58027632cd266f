"use client";

import { useQuery } from "@tanstack/react-query";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { Bar, BarChart, CartesianGrid, Cell, Legend, Tooltip, XAxis, YAxis } from "recharts";
import {
  type ActivityChartModel,
  activityChartModel,
  activityHref,
  type ChartRow,
  monthLabel,
  ACTIVITY_NET as NET,
  ACTIVITY_SERIES as SERIES,
} from "@/features/players/client/activity-chart";
import { type MonthlyActivityData, playerQueries } from "@/features/players/client/queries";
import type { ActivityFlow } from "@/features/players/schema/activity";
import { formatCount, formatMoney } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { useMediaQuery } from "@/platform/ui/hooks/use-media-query";
import { TitledCard } from "../../../platform/ui/card.tsx";
import { ErrorState } from "../../../platform/ui/error-state.tsx";
import { ScrollRegion } from "../../../platform/ui/scroll-region.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";

const CHART_HEIGHT = 288;

const cellLink =
  "rounded-sm underline decoration-slate-300 decoration-dotted underline-offset-4 hover:decoration-solid focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600";

/** The tooltip in the cards' style: the month, then each flow with its exact amount and count. */
function ActivityTooltip({
  active,
  row,
  data,
  narrow,
}: {
  active?: boolean;
  row?: ChartRow;
  data: MonthlyActivityData;
  /** A phone: smaller type and the count under the amount, so the box fits inside the chart. */
  narrow: boolean;
}) {
  if (!active || !row) return null;
  const month = data.months.find((m) => m.month === row.key);
  return (
    <div
      className={cn(
        "rounded-md border border-slate-200 bg-white shadow-md",
        narrow ? "px-2.5 py-1.5 text-xs" : "px-3 py-2 text-sm",
      )}
    >
      <p className="mb-1 font-medium text-slate-900">
        {row.monthLong}
        {month?.partial ? <span className="font-normal text-slate-600"> (to date)</span> : null}
      </p>
      <dl className={cn("grid grid-cols-[auto_auto] gap-y-0.5 tabular-nums", narrow ? "gap-x-3" : "gap-x-4")}>
        {SERIES.map((s) => (
          <div key={s.key} className="contents">
            <dt className="flex items-center gap-1.5 text-slate-600">
              <span
                aria-hidden="true"
                className="inline-block size-2.5 rounded-sm"
                style={{ background: s.color }}
              />
              {s.label}
            </dt>
            <dd className="text-right text-slate-900">
              {month ? formatMoney(month[s.key].amount, data.currency) : ""}
              {month ? (
                <span className={cn("text-xs text-slate-500", narrow ? "block" : "ml-1")}>
                  {formatCount(month[s.key].count)}×
                </span>
              ) : null}
            </dd>
          </div>
        ))}
        {month
          ? NET.map((n) => (
              <div key={n.key} className="contents">
                <dt className="pl-4 text-slate-600">{n.label}</dt>
                <dd className="text-right text-slate-900">{formatMoney(month[n.key], data.currency)}</dd>
              </div>
            ))
          : null}
      </dl>
    </div>
  );
}

export function ActivityChart({ playerId }: { playerId: string }) {
  const activity = useQuery(playerQueries.monthlyActivity(playerId));
  return (
    <TitledCard
      titleId="activity-title"
      title="Activity, last 12 months"
      description="Completed deposits, withdrawals, bets and wins per calendar month (UTC), as amounts in the player's currency; net deposits and gross gaming revenue in the table. Click a bar or a figure to list its transactions."
    >
      <div className="p-4 sm:px-5">
        {activity.isPending ? (
          <Skeleton className="h-72 w-full" />
        ) : activity.isError ? (
          <div className="flex h-72 items-center justify-center">
            <ErrorState title="Could not load the activity" query={activity} />
          </div>
        ) : (
          <ActivityBars playerId={playerId} data={activity.data} />
        )}
      </div>
    </TitledCard>
  );
}

function ActivityBars({ playerId, data }: { playerId: string; data: MonthlyActivityData }) {
  // A phone: fewer value ticks, so labels never crowd each other, and a narrower tooltip.
  const narrow = useMediaQuery("(max-width: 639px)", false);
  const router = useRouter();
  const chart = activityChartModel(data, narrow);
  return (
    <>
      <p className="mb-1 text-xs text-slate-600" data-testid="activity-chart-unit">
        Amounts in {data.currency}
      </p>
      <div className="relative h-72" data-testid="activity-chart">
        {chart.empty ? (
          <p className="absolute inset-0 z-10 flex items-center justify-center text-sm text-slate-600">
            No completed deposits, withdrawals, bets or wins in these 12 months.
          </p>
        ) : null}
        <div
          className="h-full"
          role="img"
          aria-label={`Bar chart of monthly activity in ${data.currency}; the numbers are in the table below.`}
        >
          <ActivityBarChart
            data={data}
            chart={chart}
            narrow={narrow}
            onOpen={(month, flow) => router.push(activityHref(playerId, month, flow))}
          />
        </div>
      </div>
      {chart.partial ? (
        <p className="mt-1 text-xs text-slate-700" data-testid="activity-partial-note">
          * {monthLabel(chart.partial.month, "long")} is not over: its figures are to date (partial month).
        </p>
      ) : null}
      <ActivityTable playerId={playerId} data={data} />
    </>
  );
}

/** The bars (Recharts): one group per month, the month not over yet lighter; a bar opens its transactions. */
function ActivityBarChart({
  data,
  chart,
  narrow,
  onOpen,
}: {
  data: MonthlyActivityData;
  chart: ActivityChartModel;
  narrow: boolean;
  onOpen: (month: string, flow: ActivityFlow) => void;
}) {
  const { rows, axis, partial } = chart;
  return (
    <BarChart
      responsive
      style={{ width: "100%", height: CHART_HEIGHT }}
      data={rows}
      margin={{ top: 8, right: 8, bottom: 0, left: 0 }}
      accessibilityLayer={false}
    >
      <CartesianGrid vertical={false} stroke="#e2e8f0" />
      <XAxis
        dataKey="month"
        interval="preserveStartEnd"
        minTickGap={4}
        tick={{ fill: "#475569", fontSize: 12 }}
        tickLine={false}
        axisLine={{ stroke: "#cbd5e1" }}
      />
      <YAxis
        domain={axis.domain}
        ticks={axis.ticks}
        interval={0}
        tickFormatter={chart.tickLabel}
        tick={{ fill: "#475569", fontSize: 12 }}
        tickLine={false}
        axisLine={false}
        width={chart.axisWidth}
      />
      <Tooltip
        content={(props) => (
          <ActivityTooltip
            active={props.active}
            row={props.payload?.[0]?.payload as ChartRow}
            data={data}
            narrow={narrow}
          />
        )}
        cursor={{ fill: "#f1f5f9" }}
      />
      <Legend
        wrapperStyle={{ fontSize: 13 }}
        itemSorter={null}
        formatter={(value) => <span style={{ color: "#334155" }}>{value}</span>}
      />
      {SERIES.map((s) => (
        <Bar
          key={s.key}
          dataKey={s.key}
          name={s.label}
          fill={s.color}
          radius={[2, 2, 0, 0]}
          isAnimationActive={false}
          cursor="pointer"
          // A bar opens its month's transactions of its type (the table below has the same as links).
          onClick={(_, index) => {
            const month = rows[index]?.key;
            if (month) onOpen(month, s.key);
          }}
        >
          {rows.map((r) => (
            <Cell key={r.key} fillOpacity={r.key === partial?.month ? 0.55 : 1} />
          ))}
        </Bar>
      ))}
    </BarChart>
  );
}

/** The chart's numbers as a table behind a disclosure: every figure a link to its transactions. */
function ActivityTable({ playerId, data }: { playerId: string; data: MonthlyActivityData }) {
  return (
    <details className="mt-3 text-sm">
      <summary className="cursor-pointer rounded-sm text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
        Show the numbers as a table
      </summary>
      <ScrollRegion
        aria-label={`Monthly activity in ${data.currency}`}
        // relative: the links' screen-reader text (absolutely placed) stays inside the scroll region, not beyond the page.
        className="relative mt-2"
      >
        <table className="w-full min-w-[760px] text-left tabular-nums">
          <caption className="sr-only">Monthly activity in {data.currency}</caption>
          <thead>
            <tr className="border-b border-slate-200 text-slate-600">
              <th scope="col" className="py-1.5 pr-3 font-medium">
                Month (UTC)
              </th>
              {SERIES.map((s) => (
                <th key={s.key} scope="col" className="py-1.5 pr-3 text-right font-medium">
                  {s.label}
                </th>
              ))}
              {NET.map((n) => (
                <th key={n.key} scope="col" className="py-1.5 pr-3 text-right font-medium">
                  {n.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {data.months.map((m) => (
              <ActivityTableRow key={m.month} playerId={playerId} month={m} currency={data.currency} />
            ))}
          </tbody>
        </table>
      </ScrollRegion>
    </details>
  );
}

function ActivityTableRow({
  playerId,
  month: m,
  currency,
}: {
  playerId: string;
  month: MonthlyActivityData["months"][number];
  currency: string;
}) {
  return (
    <tr className="border-b border-slate-100">
      <th scope="row" className="py-1.5 pr-3 font-normal text-slate-800">
        {monthLabel(m.month, "long")}
        {m.partial ? <span className="block text-xs text-slate-600">partial, to date</span> : null}
      </th>
      {SERIES.map((s) => (
        <td key={s.key} className="py-1.5 pr-3 text-right text-slate-900">
          <Link href={activityHref(playerId, m.month, s.key)} prefetch={false} className={cellLink}>
            {formatMoney(m[s.key].amount, currency)}
            <span className="sr-only">: show the {s.label.toLowerCase()} of this month</span>
          </Link>
          <span className="block text-xs text-slate-600">{formatCount(m[s.key].count)}×</span>
        </td>
      ))}
      {NET.map((n) => (
        <td key={n.key} className="py-1.5 pr-3 text-right text-slate-900">
          <Link href={activityHref(playerId, m.month, n.key)} prefetch={false} className={cellLink}>
            {formatMoney(m[n.key], currency)}
            <span className="sr-only">: show the transactions behind it</span>
          </Link>
        </td>
      ))}
    </tr>
  );
}
