import { TRANSACTION_RECORD_COLUMNS } from "@/features/exports/data/transaction-export-format";

/*
 * The baseline's query building: the straightforward SQL a hand-written service would issue
 * (WHERE player_id AND filters, ORDER BY date DESC, id DESC, LIMIT/OFFSET, plus count(*)).
 */

export interface BaselineQuery {
  eventTypes: string[];
  eventNames: string[];
  createdBy?: string;
  fromDate?: string;
  toDate?: string;
  limit: number;
  offset: number;
  /** ORDER BY of the product's `sort` (default newest first). */
  order?: string;
}

/** The product's `sort` values as ORDER BY clauses. */
const ORDERS: Record<string, string> = {
  date_desc: "date DESC, id DESC",
  date_asc: "date ASC, id ASC",
  amount_desc: "amount DESC, id DESC",
  amount_asc: "amount ASC, id ASC",
};

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;

/** Repeated parameters and comma-separated values, like the product accepts. */
function listParam(params: URLSearchParams, name: string): string[] {
  return [...params.getAll(name), ...params.getAll(`${name}[]`)]
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

function wholeNumber(text: string | null, fallback: number, max: number): number {
  if (text === null) return fallback;
  if (!/^\d+$/.test(text)) throw new RangeError(`not a whole number: ${text}`);
  return Math.min(Number(text), max);
}

export function parseBaselineQuery(params: URLSearchParams): BaselineQuery {
  const createdBy = params.get("created_by") ?? undefined;
  const fromDate = params.get("from_date") ?? undefined;
  const toDate = params.get("to_date") ?? undefined;
  const sort = params.get("sort");
  if (sort !== null && !ORDERS[sort]) throw new RangeError(`not a sort: ${sort}`);
  return {
    ...(sort ? { order: ORDERS[sort] } : {}),
    eventTypes: listParam(params, "event_type"),
    eventNames: listParam(params, "event_name"),
    ...(createdBy ? { createdBy } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    limit: wholeNumber(params.get("limit"), 20, 1000),
    offset: wholeNumber(params.get("offset"), 0, 100_000_000),
  };
}

/** The API's transaction record fields in the API's order: the export's record columns without the player. */
export const TRANSACTION_COLUMNS = TRANSACTION_RECORD_COLUMNS.filter((c) => c !== "player_id");

/** WHERE clause and its parameters ($1 is the player). */
export function baselineWhere(playerId: string, q: BaselineQuery): { where: string; params: unknown[] } {
  const params: unknown[] = [playerId];
  const conditions = ["player_id = $1"];
  const add = (sql: (n: number) => string, value: unknown) => {
    params.push(value);
    conditions.push(sql(params.length));
  };
  if (q.eventTypes.length) add((n) => `event_type = ANY($${n}::event_type[])`, q.eventTypes);
  if (q.eventNames.length) add((n) => `event_name = ANY($${n}::text[])`, q.eventNames);
  if (q.createdBy) add((n) => `created_by = $${n}`, q.createdBy);
  if (q.fromDate) add((n) => `date >= $${n}::timestamptz`, q.fromDate);
  if (q.toDate) {
    // A date alone includes that whole UTC day.
    if (DATE_ONLY.test(q.toDate))
      add((n) => `date < ($${n}::date + 1)::timestamp AT TIME ZONE 'UTC'`, q.toDate);
    else add((n) => `date <= $${n}::timestamptz`, q.toDate);
  }
  return { where: conditions.join(" AND "), params };
}

export function baselineListSql(playerId: string, q: BaselineQuery) {
  const { where, params } = baselineWhere(playerId, q);
  const n = params.length;
  return {
    rows: {
      text: `SELECT ${TRANSACTION_COLUMNS.join(", ")} FROM transactions WHERE ${where} ORDER BY ${q.order ?? ORDERS.date_desc} LIMIT $${n + 1} OFFSET $${n + 2}`,
      values: [...params, q.limit, q.offset],
    },
    count: { text: `SELECT count(*)::int AS total FROM transactions WHERE ${where}`, values: params },
  };
}

export function baselineExportSql(playerId: string, q: BaselineQuery) {
  const { where, params } = baselineWhere(playerId, q);
  return {
    text: `SELECT ${TRANSACTION_COLUMNS.join(", ")} FROM transactions WHERE ${where} ORDER BY date DESC, id DESC`,
    values: params,
  };
}

/** The summary the straightforward way: one aggregate over the period's transactions (last N UTC days or all). */
export function baselineSummarySql(playerId: string, period: string | null) {
  const days = period && /^(\d+)d$/.exec(period)?.[1];
  const bounds = days
    ? `AND date >= (current_date - ${Number(days) - 1})::timestamp AT TIME ZONE 'UTC'
       AND date < (current_date + 1)::timestamp AT TIME ZONE 'UTC'`
    : "";
  return {
    text: `SELECT p.currency, t.* FROM players p, LATERAL (
             SELECT count(*) FILTER (WHERE event_type = 'deposit' AND completed_at IS NOT NULL) AS deposits,
                    sum(abs(amount)) FILTER (WHERE event_type = 'deposit' AND completed_at IS NOT NULL) AS deposit_sum,
                    count(*) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NOT NULL) AS withdrawals,
                    sum(abs(amount)) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NOT NULL) AS withdrawal_sum,
                    sum(abs(amount)) FILTER (WHERE event_type = 'bet' AND completed_at IS NOT NULL) AS bets,
                    sum(abs(amount)) FILTER (WHERE event_type = 'win' AND completed_at IS NOT NULL) AS wins,
                    sum(amount) FILTER (WHERE event_type = 'bonus' AND amount > 0 AND completed_at IS NOT NULL) AS bonus,
                    min(date) AS first_activity, max(date) AS last_activity
             FROM transactions WHERE player_id = $1 ${bounds}) t
           WHERE p.id = $1`,
    values: [playerId],
  };
}

/**
 * The lookup the straightforward way: names and ids by an unindexed unaccent(name) ILIKE / id ILIKE scan with its
 * count, and the transaction id by lower(id) (the product's own index: there is no simpler fast way).
 */
export function baselineSearchSql(q: string) {
  const like = `%${q.replace(/[\\%_]/g, "\\$&")}%`;
  const where = "unaccent(name) ILIKE unaccent($1) OR id ILIKE $1";
  return {
    rows: {
      text: `SELECT id, name, email, currency, language, registration_date, last_login, total_balance FROM players WHERE ${where} ORDER BY id LIMIT 20`,
      values: [like],
    },
    count: { text: `SELECT count(*) AS total FROM players WHERE ${where}`, values: [like] },
    transactions: {
      text: "SELECT id, player_id, date, event_type FROM transactions WHERE lower(id) = lower($1) ORDER BY id LIMIT 5",
      values: [q],
    },
  };
}

/**
 * The portfolio the straightforward way: the manager's players and, per player, aggregates over their
 * transactions of the last 91 days (no daily stats, no partial index), pending withdrawals over all of them.
 */
export function baselinePortfolioSql(manager: string, asOf: string) {
  return {
    text: `SELECT p.id, p.name, p.currency, p.total_balance, t.*, w.*
           FROM players p
           LEFT JOIN LATERAL (
             SELECT sum(amount) FILTER (WHERE event_type = 'deposit' AND completed_at IS NOT NULL
                                          AND date >= $2::date - 29) AS deposits,
                    sum(amount) FILTER (WHERE event_type = 'deposit' AND completed_at IS NOT NULL
                                          AND date >= $2::date - 59 AND date < $2::date - 29) AS deposits_prev,
                    sum(-amount) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NOT NULL
                                           AND date >= $2::date - 29) AS withdrawals,
                    sum(-amount) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NOT NULL
                                           AND date >= $2::date - 59 AND date < $2::date - 29) AS withdrawals_prev,
                    sum(-amount) FILTER (WHERE event_type IN ('bet', 'win') AND completed_at IS NOT NULL
                                           AND date >= $2::date - 29) AS ggr,
                    sum(amount) FILTER (WHERE event_type = 'deposit' AND completed_at IS NOT NULL
                                          AND date >= $2::date - 6) AS deposits_7d,
                    max(-amount) FILTER (WHERE event_type = 'withdrawal' AND date >= $2::timestamptz - interval '7 days')
                      AS largest_withdrawal_7d
             FROM transactions WHERE player_id = p.id AND date >= $2::date - 90) t ON true
           LEFT JOIN LATERAL (
             SELECT max(date) AS last_activity,
                    max(date) FILTER (WHERE event_type = 'deposit') AS last_deposit,
                    count(*) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NULL) AS pending_n,
                    sum(-amount) FILTER (WHERE event_type = 'withdrawal' AND completed_at IS NULL) AS pending_sum
             FROM transactions WHERE player_id = p.id) w ON true
           WHERE p.vip_manager = $1
           ORDER BY p.id`,
    values: [manager, asOf],
  };
}
