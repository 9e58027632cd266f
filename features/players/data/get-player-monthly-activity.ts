import "server-only";
import type {
  ActivityFlow,
  MonthlyActivity,
  MonthlyActivityResponse,
} from "@/features/players/schema/activity";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { subtractExact } from "@/platform/format/exact-decimal";
import { playerNotFound } from "@/platform/http/errors";
import { ExactNumber } from "@/platform/schemas/exact-number";

const FLOW_OF_TYPE: Record<string, ActivityFlow> = {
  deposit: "deposits",
  withdrawal: "withdrawals",
  bet: "bets",
  win: "wins",
};

/** The UTC month `toMonth` ("YYYY-MM", default: the month of `now`) and the `months − 1` before it. */
export function activityWindow(
  months: number,
  toMonth: string | undefined,
  now: Date = new Date(),
): { from: Date; to: Date; labels: string[] } {
  const [year, month] = toMonth
    ? toMonth.split("-").map(Number)
    : [now.getUTCFullYear(), now.getUTCMonth() + 1];
  const end = new Date(Date.UTC(year ?? 1970, month ?? 1, 1)); // first instant after the last month
  const from = new Date(Date.UTC(year ?? 1970, (month ?? 1) - months, 1));
  const labels: string[] = [];
  for (let i = 0; i < months; i++) {
    const d = new Date(Date.UTC(from.getUTCFullYear(), from.getUTCMonth() + i, 1));
    labels.push(`${d.getUTCFullYear()}-${String(d.getUTCMonth() + 1).padStart(2, "0")}`);
  }
  return { from, to: end, labels };
}

export interface GetPlayerMonthlyActivityOptions {
  playerId: string;
  /** How many UTC months, ending with `toMonth`. */
  months: number;
  /** "YYYY-MM"; default: the month of `now`. */
  toMonth?: string | undefined;
  now?: Date | undefined;
}

/**
 * Completed deposits, withdrawals, bets and wins of one player per UTC month (count and sum of
 * absolute amounts), every month of the window present. Throws a not-found AppError when the player does not exist.
 */
export async function getPlayerMonthlyActivity(
  options: GetPlayerMonthlyActivityOptions,
  db: PrismaClient = getPrisma(),
): Promise<MonthlyActivityResponse> {
  const { playerId } = options;
  const { from, to, labels } = activityWindow(options.months, options.toMonth, options.now);
  const player = await db.player.findUnique({ where: { id: playerId }, select: { currency: true } });
  if (!player) throw playerNotFound(playerId);
  // Read from the per-day stats (kept current by triggers): the window is whole UTC months, so summing its days is
  // exact, and a player with millions of transactions costs a few thousand rows.
  const rows = await db.$queryRaw<{ month: string; event_type: string; n: number; amount: string }[]>`
    SELECT to_char(s.day, 'YYYY-MM') AS month,
           s.event_type::text AS event_type,
           sum(s.completed_n)::int AS n,
           sum(s.completed_amount)::text AS amount
    FROM transaction_daily_stats s
    WHERE s.player_id = ${playerId}
      AND s.day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date
      AND s.day < (${to}::timestamptz AT TIME ZONE 'UTC')::date
      AND s.completed_n > 0
      AND s.event_type IN ('deposit', 'withdrawal', 'bet', 'win')
    GROUP BY 1, 2`;
  const zero = () => ({ count: 0, amount: new ExactNumber("0") });
  const byMonth = new Map<string, MonthlyActivity>(
    labels.map((month) => [
      month,
      {
        month,
        deposits: zero(),
        withdrawals: zero(),
        bets: zero(),
        wins: zero(),
        net_deposits: new ExactNumber("0"),
        gross_gaming_revenue: new ExactNumber("0"),
        partial: false,
      },
    ]),
  );
  for (const row of rows) {
    const entry = byMonth.get(row.month);
    const flow = FLOW_OF_TYPE[row.event_type];
    if (entry && flow) entry[flow] = { count: row.n, amount: ExactNumber.from(row.amount) };
  }
  // The month of `now` is not over: its figures are to date (the chart marks it).
  const current = (options.now ?? new Date()).toISOString().slice(0, 7);
  for (const entry of byMonth.values()) {
    const net = (a: ExactNumber, b: ExactNumber) => new ExactNumber(subtractExact(a.digits, b.digits));
    entry.net_deposits = net(entry.deposits.amount, entry.withdrawals.amount);
    entry.gross_gaming_revenue = net(entry.bets.amount, entry.wins.amount);
    entry.partial = entry.month === current;
  }
  return {
    player_id: playerId,
    currency: player.currency,
    from: from.toISOString(),
    to: to.toISOString(),
    months: [...byMonth.values()],
  };
}
