import { formatTick, type ValueAxis, valueAxis } from "@/features/players/client/axis-ticks";
import type { ActivityFlow } from "@/features/players/schema/activity";
import type { EventTypeValue } from "@/features/transactions/client";
import { drillDownHref, monthDays } from "@/features/transactions/client";
import { DISPLAY_LOCALE } from "@/platform/format/locale";
import type { MonthlyActivityData } from "./queries.ts";

/** The four flows, in the chart's and the table's order, with their bar colours. */
export const ACTIVITY_SERIES: readonly { key: ActivityFlow; label: string; color: string }[] = [
  { key: "deposits", label: "Deposits", color: "#059669" },
  { key: "withdrawals", label: "Withdrawals", color: "#d97706" },
  { key: "bets", label: "Bets", color: "#4f46e5" },
  { key: "wins", label: "Wins", color: "#0891b2" },
];

export type ActivityNetKey = "net_deposits" | "gross_gaming_revenue";

/** The net figures beside the flows, in the table and the tooltip. */
export const ACTIVITY_NET: readonly { key: ActivityNetKey; label: string }[] = [
  { key: "net_deposits", label: "Net deposits" },
  { key: "gross_gaming_revenue", label: "GGR" },
];

/** The event types behind each flow and net figure: what a click on it lists. */
export const ACTIVITY_TYPES: Record<ActivityFlow | ActivityNetKey, EventTypeValue[]> = {
  deposits: ["deposit"],
  withdrawals: ["withdrawal"],
  bets: ["bet"],
  wins: ["win"],
  net_deposits: ["deposit", "withdrawal"],
  gross_gaming_revenue: ["bet", "win"],
};

const monthFormat = new Map<string, Intl.DateTimeFormat>();

/** "Nov 26" (short, the axis) or "November 2026" (long, the tooltip and the table), of a UTC `YYYY-MM` month. */
export function monthLabel(month: string, style: "short" | "long"): string {
  let f = monthFormat.get(style);
  if (!f) {
    f = new Intl.DateTimeFormat(DISPLAY_LOCALE, {
      timeZone: "UTC",
      month: style === "short" ? "short" : "long",
      year: style === "short" ? "2-digit" : "numeric",
    });
    monthFormat.set(style, f);
  }
  return f.format(new Date(`${month}-01T00:00:00Z`));
}

/** One bar group: the month's key, its axis and tooltip labels, and each flow's amount as a plotted number. */
export type ChartRow = { key: string; month: string; monthLong: string } & Record<ActivityFlow, number>;

export interface ActivityChartModel {
  rows: ChartRow[];
  /** The month not over yet (its axis label has an asterisk, its bars are lighter), if shown. */
  partial: MonthlyActivityData["months"][number] | undefined;
  axis: ValueAxis;
  tickLabel: (value: number) => string;
  /** The value axis's width in px: room for its longest label. */
  axisWidth: number;
  /** No completed flow at all in the months shown. */
  empty: boolean;
}

/** The rows Recharts plots: amounts become numbers only here, for bar heights; labels show the exact strings. */
export function activityChartRows(data: MonthlyActivityData): ChartRow[] {
  return data.months.map(
    (m) =>
      ({
        key: m.month,
        month: `${monthLabel(m.month, "short")}${m.partial ? "*" : ""}`,
        monthLong: monthLabel(m.month, "long"),
        ...Object.fromEntries(ACTIVITY_SERIES.map((s) => [s.key, Number(m[s.key].amount)])),
      }) as ChartRow,
  );
}

/** Everything the bar chart derives from the data; `narrow` (a phone) gets fewer value ticks. */
export function activityChartModel(data: MonthlyActivityData, narrow: boolean): ActivityChartModel {
  const rows = activityChartRows(data);
  const axis = valueAxis(
    rows.flatMap((r) => ACTIVITY_SERIES.map((s) => r[s.key])),
    narrow ? 3 : 5,
  );
  const tickLabel = (v: number) => formatTick(v, axis, data.currency);
  // Room for the longest label (about 7 px a character at 12 px), so none is clipped.
  const axisWidth = Math.max(40, 12 + 7 * Math.max(...axis.ticks.map((t) => tickLabel(t).length)));
  return {
    rows,
    partial: data.months.find((m) => m.partial),
    axis,
    tickLabel,
    axisWidth,
    empty: data.months.every((m) => ACTIVITY_SERIES.every((s) => m[s.key].count === 0)),
  };
}

/** The transactions behind one month's flow or net figure: what a bar or a table cell opens. */
export function activityHref(playerId: string, month: string, what: ActivityFlow | ActivityNetKey): string {
  return drillDownHref(playerId, { types: ACTIVITY_TYPES[what], ...monthDays(month) });
}
