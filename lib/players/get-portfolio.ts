import "server-only";
import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import { type KycStatus, PORTFOLIO_FLAGS, type PortfolioFlag } from "@/lib/schemas/enums";
import { ExactNumber } from "@/lib/schemas/exact-number";
import type { Portfolio, PortfolioFlagRules, PortfolioPlayer } from "@/lib/schemas/portfolio";

const DAY = 86_400_000;

export interface GetPortfolioOptions {
  /** The profiles' `vip_manager` value, matched exactly. */
  manager: string;
  /** The instant the windows end at; its UTC day is the portfolio's day. */
  asOf: Date;
  rules: PortfolioFlagRules;
}

/** The portfolio's day windows, as UTC dates (`YYYY-MM-DD`), each inclusive. */
export interface PortfolioDays {
  /** The portfolio's day (the UTC day of asOf). */
  today: string;
  /** First day of the last 30 days (today − 29); the previous 30 days are [prev30, last30). */
  last30: string;
  prev30: string;
  /** First day of the last 7 days (today − 6); the usual week's 12 weeks are [usual, last7). */
  last7: string;
  usual: string;
}

const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

export function portfolioDays(asOf: Date): PortfolioDays {
  const today = Math.floor(asOf.getTime() / DAY) * DAY;
  return {
    today: isoDay(today),
    last30: isoDay(today - 29 * DAY),
    prev30: isoDay(today - 59 * DAY),
    last7: isoDay(today - 6 * DAY),
    usual: isoDay(today - (6 + 84) * DAY),
  };
}

interface PortfolioRow {
  id: string;
  name: string;
  currency: string;
  total_balance: string;
  blocked: boolean;
  kyc_status: KycStatus;
  withdrawal_status: string | null;
  segments: string[];
  dep: string;
  dep_prev: string;
  wd: string;
  wd_prev: string;
  ggr: string;
  ggr_prev: string;
  days_since_deposit: number | null;
  days_since_activity: number | null;
  pending_n: number;
  pending_sum: string;
  pending_oldest: Date | null;
  largest_wd_7d: string | null;
  churn_risk: boolean;
  big_withdrawal: boolean;
  pending_withdrawal_24h: boolean;
  deposit_spike: boolean;
}

/**
 * The flows of the book's players over the 90 days the figures and the usual week need, from the per-day stats
 * (completed amounts, one index-only range per player and event type on transaction_daily_stats_flows_idx).
 */
function flowsSql(d: PortfolioDays): Prisma.Sql {
  const sum = (type: string, from: string, until?: string) =>
    Prisma.sql`COALESCE(sum(s.completed_amount) FILTER (WHERE s.event_type = ${Prisma.raw(`'${type}'`)}
      AND s.day >= ${from}::date ${until ? Prisma.sql`AND s.day < ${until}::date` : Prisma.empty}), 0)`;
  return Prisma.sql`
    SELECT s.player_id,
           ${sum("deposit", d.last30)} AS dep, ${sum("deposit", d.prev30, d.last30)} AS dep_prev,
           ${sum("withdrawal", d.last30)} AS wd, ${sum("withdrawal", d.prev30, d.last30)} AS wd_prev,
           ${sum("bet", d.last30)} - ${sum("win", d.last30)} AS ggr,
           ${sum("bet", d.prev30, d.last30)} - ${sum("win", d.prev30, d.last30)} AS ggr_prev,
           ${sum("deposit", d.last7)} AS dep7, ${sum("deposit", d.usual, d.last7)} AS dep_usual
    FROM book b
    JOIN transaction_daily_stats s ON s.player_id = b.id
    WHERE s.event_type IN ('deposit', 'withdrawal', 'bet', 'win')
      AND s.day >= ${d.usual}::date AND s.day <= ${d.today}::date AND s.completed_n > 0
    GROUP BY s.player_id`;
}

/**
 * One statement: the book (players_vip_manager_id_idx), its flows (flowsSql), and per player four index probes:
 * the last day with any transaction (the stats' key, backwards), the last day with a completed deposit
 * (the flows index, backwards), the pending withdrawals (transactions_pending_withdrawals_idx, only pending ones)
 * and the largest withdrawal of the last 7 days (the type/date index). Flags are decided here, in numeric.
 */
function portfolioSql(options: GetPortfolioOptions, d: PortfolioDays): Prisma.Sql {
  const { manager, asOf, rules } = options;
  const currencies = rules.big_withdrawal_amounts.map((a) => a.currency);
  const amounts = rules.big_withdrawal_amounts.map((a) => a.amount.digits);
  return Prisma.sql`
    WITH book AS (
      SELECT p.id, p.name, p.currency, p.total_balance, p.blocked, p.kyc_status, p.withdrawal_status, p.segments
      FROM players p WHERE p.vip_manager = ${manager}
    ), flows AS (${flowsSql(d)}),
    limits AS (
      SELECT * FROM unnest(${currencies}::text[], ${amounts}::numeric[]) AS l(currency, amount)
    ), rows AS (
      SELECT b.*, f.dep, f.dep_prev, f.wd, f.wd_prev, f.ggr, f.ggr_prev, f.dep7, f.dep_usual,
             ${d.today}::date - la.day AS days_since_activity,
             ${d.today}::date - ld.day AS days_since_deposit,
             pw.n AS pending_n, pw.total AS pending_sum, pw.oldest AS pending_oldest,
             bw.largest AS largest_wd_7d, l.amount AS big_amount
      FROM book b
      LEFT JOIN flows f ON f.player_id = b.id
      LEFT JOIN LATERAL (
        SELECT s.day FROM transaction_daily_stats s
        WHERE s.player_id = b.id AND s.day <= ${d.today}::date ORDER BY s.day DESC LIMIT 1
      ) la ON true
      LEFT JOIN LATERAL (
        SELECT s.day FROM transaction_daily_stats s
        WHERE s.player_id = b.id AND s.event_type = 'deposit' AND s.day <= ${d.today}::date AND s.completed_n > 0
        ORDER BY s.day DESC LIMIT 1
      ) ld ON true
      LEFT JOIN LATERAL (
        SELECT count(*)::int AS n, COALESCE(sum(abs(t.amount)), 0) AS total, min(t.date) AS oldest
        FROM transactions t
        WHERE t.player_id = b.id AND t.event_type = 'withdrawal' AND t.completed_at IS NULL
          AND t.date <= ${asOf}::timestamptz
      ) pw ON true
      LEFT JOIN LATERAL (
        SELECT max(abs(t.amount)) AS largest FROM transactions t
        WHERE t.player_id = b.id AND t.event_type = 'withdrawal'
          AND t.date > ${asOf}::timestamptz - interval '7 days' AND t.date <= ${asOf}::timestamptz
      ) bw ON true
      LEFT JOIN limits l ON l.currency = upper(b.currency)
    )
    SELECT id, name, currency, total_balance::text AS total_balance, blocked, kyc_status::text AS kyc_status,
           withdrawal_status, segments,
           COALESCE(dep, 0)::text AS dep, COALESCE(dep_prev, 0)::text AS dep_prev,
           COALESCE(wd, 0)::text AS wd, COALESCE(wd_prev, 0)::text AS wd_prev,
           COALESCE(ggr, 0)::text AS ggr, COALESCE(ggr_prev, 0)::text AS ggr_prev,
           days_since_deposit, days_since_activity, pending_n, pending_sum::text AS pending_sum, pending_oldest,
           largest_wd_7d::text AS largest_wd_7d,
           COALESCE(days_since_activity >= ${rules.churn_days}::int, false) AS churn_risk,
           COALESCE(largest_wd_7d > big_amount
             OR largest_wd_7d * 100 > ${rules.big_withdrawal_percent}::int * (total_balance + largest_wd_7d), false)
             AS big_withdrawal,
           COALESCE(pending_oldest < ${asOf}::timestamptz - interval '24 hours', false) AS pending_withdrawal_24h,
           COALESCE(dep_usual > 0 AND dep7 * 12 > ${rules.deposit_spike_factor}::int * dep_usual, false)
             AS deposit_spike
    FROM rows
    ORDER BY id`;
}

const exact = (text: string) => new ExactNumber(text);

/** current, previous and their difference, exactly (the difference is computed on digit strings by numeric). */
function figure(current: string, previous: string): PortfolioPlayer["deposits"] {
  return { current: exact(current), previous: exact(previous), change: exact(subtract(current, previous)) };
}

/** a − b on plain decimal strings, exactly (scaled BigInts). */
export function subtract(a: string, b: string): string {
  const scale = Math.max(a.split(".")[1]?.length ?? 0, b.split(".")[1]?.length ?? 0);
  const toUnits = (s: string) => {
    const negative = s.startsWith("-");
    const [whole = "0", frac = ""] = (negative ? s.slice(1) : s).split(".");
    const units = BigInt(whole + frac.padEnd(scale, "0"));
    return negative ? -units : units;
  };
  const diff = toUnits(a) - toUnits(b);
  const negative = diff < 0n;
  const digits = (negative ? -diff : diff).toString().padStart(scale + 1, "0");
  const body = scale ? `${digits.slice(0, -scale)}.${digits.slice(-scale)}` : digits;
  return ExactNumber.normalize(`${negative ? "-" : ""}${body}`);
}

function toPortfolioPlayer(row: PortfolioRow): PortfolioPlayer {
  const netCurrent = subtract(row.dep, row.wd);
  const netPrevious = subtract(row.dep_prev, row.wd_prev);
  return {
    id: row.id,
    name: row.name,
    currency: row.currency,
    total_balance: exact(row.total_balance),
    blocked: row.blocked,
    kyc_status: row.kyc_status,
    withdrawal_status: row.withdrawal_status,
    segments: row.segments,
    deposits: figure(row.dep, row.dep_prev),
    withdrawals: figure(row.wd, row.wd_prev),
    net_deposits: figure(netCurrent, netPrevious),
    ggr: figure(row.ggr, row.ggr_prev),
    days_since_last_deposit: row.days_since_deposit,
    days_since_last_activity: row.days_since_activity,
    pending_withdrawals: {
      count: row.pending_n,
      amount: exact(row.pending_sum),
      oldest: row.pending_oldest?.toISOString() ?? null,
    },
    largest_withdrawal_7d: row.largest_wd_7d === null ? null : exact(row.largest_wd_7d),
    flags: PORTFOLIO_FLAGS.filter((flag: PortfolioFlag) => row[flag]),
  };
}

/**
 * A VIP manager's book: every player whose `vip_manager` is `manager`, ordered by id, with the last 30 UTC days'
 * completed deposits, withdrawals, net deposits and GGR against the 30 days before, days since the last deposit and
 * the last transaction, pending withdrawals and the flags (docs/decisions.md, "The portfolio"). An unknown manager
 * has an empty book (no error: a name is not a secret, and the caller's scope was checked before).
 */
export async function getPortfolio(
  options: GetPortfolioOptions,
  db: PrismaClient = getPrisma(),
): Promise<Portfolio> {
  const days = portfolioDays(options.asOf);
  const rows = await db.$queryRaw<PortfolioRow[]>(portfolioSql(options, days));
  return {
    manager: options.manager,
    as_of: options.asOf.toISOString(),
    flag_rules: options.rules,
    players: rows.map(toPortfolioPlayer),
  };
}
