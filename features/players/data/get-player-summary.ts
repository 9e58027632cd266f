import "server-only";
import type { PeriodFigures, PlayerSummary, SummaryPeriod } from "@/features/players/schema/summary";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { ExactNumber } from "@/platform/schemas/exact-number";

const DAY = 86_400_000;
const PERIOD_DAYS: Record<SummaryPeriod, number | null> = { "30d": 30, "90d": 90, "365d": 365, all: null };

/**
 * The period as half-open UTC midnights: the last N UTC days with today (the day of `now`) included, i.e. from
 * the midnight N − 1 days before today's until the midnight after today. Unbounded for `all`.
 */
export function summaryWindow(period: SummaryPeriod, now: Date): { from: Date | null; to: Date | null } {
  const days = PERIOD_DAYS[period];
  if (days === null) return { from: null, to: null };
  const today = Math.floor(now.getTime() / DAY) * DAY;
  return { from: new Date(today - (days - 1) * DAY), to: new Date(today + DAY) };
}

interface SummaryRow {
  currency: string;
  deposit_n: number;
  deposit_sum: string;
  deposit_avg: string | null;
  withdrawal_n: number;
  withdrawal_sum: string;
  withdrawal_avg: string | null;
  net_deposits: string;
  bet_n: number;
  bet_sum: string;
  win_n: number;
  win_sum: string;
  ggr: string;
  bonus_n: number;
  bonus_sum: string;
  first_activity: Date | null;
  last_activity: Date | null;
}

/**
 * One statement, one round trip. The flows come from transaction_daily_stats (kept current by triggers): the
 * period is whole UTC days, so summing its days is exact, and a player with 1.25M transactions costs a few
 * thousand stats rows. Bonus grants are read row by row because the stats keep absolute amounts only (a grant
 * and its conversion look alike there): the (player_id, event_type, amount) index reaches the positive bonus
 * amounts directly. First and last activity are two index probes (min/max over (player_id, date)).
 */
function summaryQuery(playerId: string, from: Date | null, to: Date | null): Prisma.Sql {
  const dayBounds = Prisma.join(
    [
      Prisma.sql`s.player_id = ${playerId}`,
      ...(from ? [Prisma.sql`s.day >= (${from}::timestamptz AT TIME ZONE 'UTC')::date`] : []),
      ...(to ? [Prisma.sql`s.day < (${to}::timestamptz AT TIME ZONE 'UTC')::date`] : []),
    ],
    " AND ",
  );
  const dateBounds = Prisma.join(
    [
      Prisma.sql`t.player_id = ${playerId}`,
      ...(from ? [Prisma.sql`t.date >= ${from}::timestamptz`] : []),
      ...(to ? [Prisma.sql`t.date < ${to}::timestamptz`] : []),
    ],
    " AND ",
  );
  const flow = (type: string) => Prisma.raw(`event_type = '${type}'`);
  return Prisma.sql`
    WITH f AS (
      SELECT COALESCE(sum(s.completed_n) FILTER (WHERE ${flow("deposit")}), 0) AS deposit_n,
             COALESCE(sum(s.completed_amount) FILTER (WHERE ${flow("deposit")}), 0) AS deposit_sum,
             COALESCE(sum(s.completed_n) FILTER (WHERE ${flow("withdrawal")}), 0) AS withdrawal_n,
             COALESCE(sum(s.completed_amount) FILTER (WHERE ${flow("withdrawal")}), 0) AS withdrawal_sum,
             COALESCE(sum(s.completed_n) FILTER (WHERE ${flow("bet")}), 0) AS bet_n,
             COALESCE(sum(s.completed_amount) FILTER (WHERE ${flow("bet")}), 0) AS bet_sum,
             COALESCE(sum(s.completed_n) FILTER (WHERE ${flow("win")}), 0) AS win_n,
             COALESCE(sum(s.completed_amount) FILTER (WHERE ${flow("win")}), 0) AS win_sum
      FROM transaction_daily_stats s
      WHERE ${dayBounds} AND s.completed_n > 0
        AND s.event_type IN ('deposit', 'withdrawal', 'bet', 'win')
    ), b AS (
      SELECT count(*)::int AS bonus_n, COALESCE(sum(t.amount), 0) AS bonus_sum
      FROM transactions t
      WHERE ${dateBounds} AND t.event_type = 'bonus' AND t.amount > 0 AND t.completed_at IS NOT NULL
    )
    SELECT p.currency,
           f.deposit_n::int AS deposit_n, f.deposit_sum::text AS deposit_sum,
           (round(f.deposit_sum / NULLIF(f.deposit_n, 0), 8))::text AS deposit_avg,
           f.withdrawal_n::int AS withdrawal_n, f.withdrawal_sum::text AS withdrawal_sum,
           (round(f.withdrawal_sum / NULLIF(f.withdrawal_n, 0), 8))::text AS withdrawal_avg,
           (f.deposit_sum - f.withdrawal_sum)::text AS net_deposits,
           f.bet_n::int AS bet_n, f.bet_sum::text AS bet_sum,
           f.win_n::int AS win_n, f.win_sum::text AS win_sum,
           (f.bet_sum - f.win_sum)::text AS ggr,
           b.bonus_n, b.bonus_sum::text AS bonus_sum,
           (SELECT min(t.date) FROM transactions t WHERE ${dateBounds}) AS first_activity,
           (SELECT max(t.date) FROM transactions t WHERE ${dateBounds}) AS last_activity
    FROM players p, f, b
    WHERE p.id = ${playerId}`;
}

const exact = (text: string) => new ExactNumber(text);

/** A stats row as the API's figures for a period. */
function toFigures(row: SummaryRow, from: Date | null, to: Date | null): PeriodFigures {
  return {
    from: from?.toISOString() ?? null,
    to: to?.toISOString() ?? null,
    deposits: {
      count: row.deposit_n,
      sum: exact(row.deposit_sum),
      average: row.deposit_avg === null ? null : exact(row.deposit_avg),
    },
    withdrawals: {
      count: row.withdrawal_n,
      sum: exact(row.withdrawal_sum),
      average: row.withdrawal_avg === null ? null : exact(row.withdrawal_avg),
    },
    net_deposits: exact(row.net_deposits),
    bets: { count: row.bet_n, sum: exact(row.bet_sum) },
    wins: { count: row.win_n, sum: exact(row.win_sum) },
    gross_gaming_revenue: exact(row.ggr),
    bonus_granted: { count: row.bonus_n, sum: exact(row.bonus_sum) },
    first_activity: row.first_activity?.toISOString() ?? null,
    last_activity: row.last_activity?.toISOString() ?? null,
  };
}

/** The period of the same length just before a bounded window; null for `all`, which has none. */
export function previousWindow(window: {
  from: Date | null;
  to: Date | null;
}): { from: Date; to: Date } | null {
  if (!window.from || !window.to) return null;
  const length = window.to.getTime() - window.from.getTime();
  return { from: new Date(window.from.getTime() - length), to: window.from };
}

export interface GetPlayerSummaryOptions {
  playerId: string;
  period: SummaryPeriod;
  /** Fixes "today"; default: the current time. */
  now?: Date | undefined;
}

/**
 * A player's figures for a period ending today (UTC): completed deposits and withdrawals (count, sum, average),
 * net deposits, bets, wins, gross gaming revenue, bonus grants, and the first and last activity in the period;
 * beside them the same figures for the previous period of the same length (the 30 days before the last 30), so
 * every figure can show its change. Both are whole UTC days from transaction_daily_stats: exact, and the two
 * statements run at once. Throws a not-found AppError when the player does not exist. `now` fixes "today" (tests,
 * the demo's reference date).
 */
export async function getPlayerSummary(
  options: GetPlayerSummaryOptions,
  db: PrismaClient = getPrisma(),
): Promise<PlayerSummary> {
  const { playerId, period, now = new Date() } = options;
  const { from, to } = summaryWindow(period, now);
  const before = previousWindow({ from, to });
  const [[row], previousRows] = await Promise.all([
    db.$queryRaw<SummaryRow[]>(summaryQuery(playerId, from, to)),
    before ? db.$queryRaw<SummaryRow[]>(summaryQuery(playerId, before.from, before.to)) : Promise.resolve([]),
  ]);
  if (!row) throw playerNotFound(playerId);
  const previous = before && previousRows[0] ? toFigures(previousRows[0], before.from, before.to) : null;
  return { player_id: playerId, currency: row.currency, period, ...toFigures(row, from, to), previous };
}
