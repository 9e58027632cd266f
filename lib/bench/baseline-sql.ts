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
}

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
  return {
    eventTypes: listParam(params, "event_type"),
    eventNames: listParam(params, "event_name"),
    ...(createdBy ? { createdBy } : {}),
    ...(fromDate ? { fromDate } : {}),
    ...(toDate ? { toDate } : {}),
    limit: wholeNumber(params.get("limit"), 20, 1000),
    offset: wholeNumber(params.get("offset"), 0, 100_000_000),
  };
}

export const TRANSACTION_COLUMNS = [
  "id",
  "date",
  "event_type",
  "event_name",
  "event_note",
  "amount",
  "currency",
  "payment_method",
  "created_by",
  "created_at",
  "completed_at",
] as const;

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
      text: `SELECT ${TRANSACTION_COLUMNS.join(", ")} FROM transactions WHERE ${where} ORDER BY date DESC, id DESC LIMIT $${n + 1} OFFSET $${n + 2}`,
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
