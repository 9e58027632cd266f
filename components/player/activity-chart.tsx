"use client";

import { useQuery } from "@tanstack/react-query";
import { Bar, BarChart, CartesianGrid, Legend, Tooltip, XAxis, YAxis } from "recharts";
import { queries } from "@/lib/client/queries";
import type { MonthlyActivityData } from "@/lib/client/wire";
import { formatCount, formatMoney } from "@/lib/format/money";
import type { ActivityFlow } from "@/lib/schemas/activity";
import { ErrorState } from "../error-state.tsx";
import { Card, CardHeader } from "../ui/card.tsx";
import { Skeleton } from "../ui/skeleton.tsx";

const CHART_HEIGHT = 288;

const SERIES: { key: ActivityFlow; label: string; color: string }[] = [
  { key: "deposits", label: "Deposits", color: "#059669" },
  { key: "withdrawals", label: "Withdrawals", color: "#d97706" },
  { key: "bets", label: "Bets", color: "#4f46e5" },
  { key: "wins", label: "Wins", color: "#0891b2" },
];

const monthFormat = new Map<string, Intl.DateTimeFormat>();
function monthLabel(month: string, style: "short" | "long"): string {
  let f = monthFormat.get(style);
  if (!f) {
    f = new Intl.DateTimeFormat(undefined, {
      timeZone: "UTC",
      month: style === "short" ? "short" : "long",
      year: style === "short" ? "2-digit" : "numeric",
    });
    monthFormat.set(style, f);
  }
  return f.format(new Date(`${month}-01T00:00:00Z`));
}

let compact: Intl.NumberFormat | undefined;
const compactNumber = (n: number) => {
  compact ??= new Intl.NumberFormat(undefined, { notation: "compact", maximumFractionDigits: 1 });
  return compact.format(n);
};

export function ActivityChart({ playerId }: { playerId: string }) {
  const activity = useQuery(queries.monthlyActivity(playerId));
  return (
    <Card aria-labelledby="activity-title">
      <CardHeader
        titleId="activity-title"
        title="Activity, last 12 months"
        description="Completed deposits, withdrawals, bets and wins per calendar month (UTC), as amounts in the player's currency."
      />
      <div className="p-4 sm:px-5">
        {activity.isPending ? (
          <Skeleton className="h-72 w-full" />
        ) : activity.isError ? (
          <div className="flex h-72 items-center justify-center">
            <ErrorState
              title="Could not load the activity"
              error={activity.error}
              onRetry={() => void activity.refetch()}
              retrying={activity.isFetching}
            />
          </div>
        ) : (
          <ActivityBars data={activity.data} />
        )}
      </div>
    </Card>
  );
}

function ActivityBars({ data }: { data: MonthlyActivityData }) {
  const rows = data.months.map((m) => ({
    month: monthLabel(m.month, "short"),
    ...Object.fromEntries(SERIES.map((s) => [s.key, Number(m[s.key].amount)])),
  }));
  const empty = data.months.every((m) => SERIES.every((s) => m[s.key].count === 0));
  const money = (v: string) => formatMoney(v, data.currency);
  return (
    <>
      <div className="relative h-72" data-testid="activity-chart">
        {empty ? (
          <p className="absolute inset-0 z-10 flex items-center justify-center text-sm text-slate-600">
            No completed deposits, withdrawals, bets or wins in these 12 months.
          </p>
        ) : null}
        <div
          className="h-full"
          role="img"
          aria-label={`Bar chart of monthly activity in ${data.currency}; the numbers are in the table below.`}
        >
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
              tick={{ fill: "#475569", fontSize: 12 }}
              tickLine={false}
              axisLine={{ stroke: "#cbd5e1" }}
            />
            <YAxis
              tickFormatter={compactNumber}
              tick={{ fill: "#475569", fontSize: 12 }}
              tickLine={false}
              axisLine={false}
              width={56}
            />
            <Tooltip
              formatter={(value, name) => [formatMoney(String(value), data.currency), name]}
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
              />
            ))}
          </BarChart>
        </div>
      </div>
      <details className="mt-3 text-sm">
        <summary className="cursor-pointer rounded-sm text-indigo-700 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600">
          Show the numbers as a table
        </summary>
        <section
          aria-label={`Monthly activity in ${data.currency}`}
          className="mt-2 overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600"
          // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be reachable by keyboard
          tabIndex={0}
        >
          <table className="w-full min-w-[560px] text-left tabular-nums">
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
              </tr>
            </thead>
            <tbody>
              {data.months.map((m) => (
                <tr key={m.month} className="border-b border-slate-100">
                  <th scope="row" className="py-1.5 pr-3 font-normal text-slate-800">
                    {monthLabel(m.month, "long")}
                  </th>
                  {SERIES.map((s) => (
                    <td key={s.key} className="py-1.5 pr-3 text-right text-slate-900">
                      {money(m[s.key].amount)}
                      <span className="block text-xs text-slate-600">{formatCount(m[s.key].count)}×</span>
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      </details>
    </>
  );
}
