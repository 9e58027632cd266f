/** Chooses the benchmark's players and filter values from the data in the database. */
import type pg from "pg";

export interface BenchData {
  whale: { id: string; transactions: number };
  small: { id: string; transactions: number };
  /** The whale's most frequent event type, and a date range over the middle half of its history. */
  typeDate: { eventType: string; fromDate: string; toDate: string; matches: number };
  /** The whale's most frequent event name. */
  eventName: { value: string; matches: number };
  /** Depth of the offset and cursor scenarios: min(100,000, whale's total − 20). */
  depth: number;
  /** A from_date on the whale matching ≈min(100,000, whale's total) rows. */
  export: { fromDate: string; rows: number };
  /**
   * The lookup's terms: a player's name with accents typed without them, in lower case ("zoe cote" for "Zoé
   * Côté"; any name when none has accents), and the whale's newest transaction id in lower case.
   */
  search: { name: string; transactionId: string };
  /** db:generate's benchmark manager: how many players their book holds (the portfolio scenario). */
  book: { manager: string; players: number };
}

/** "Zoé Côté" → "zoe cote": how an agent types a name heard on the phone. */
export const plainName = (name: string) => name.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

export const TARGET_DEPTH = 100_000;
export const TARGET_EXPORT_ROWS = 100_000;

const iso = (d: unknown) => (d instanceof Date ? d.toISOString() : new Date(String(d)).toISOString());

export async function pickBenchData(
  pool: pg.Pool,
  whaleId?: string,
  bookManager = "Portfolio Bench",
): Promise<BenchData> {
  const { whale, small } = await pickPlayers(pool, whaleId);
  const { typeDate, eventName } = await whaleFilters(pool, whale.id);
  const exportRange = await whaleExport(pool, whale);
  const search = await searchTerms(pool, whale.id);
  const book = await firstRow<{ n: string }>(
    pool,
    "SELECT count(*) AS n FROM players WHERE vip_manager = $1",
    [bookManager],
  );
  return {
    search,
    book: { manager: bookManager, players: Number(book.n) },
    whale,
    small,
    typeDate,
    eventName,
    depth: Math.max(0, Math.min(TARGET_DEPTH, whale.transactions - 20)),
    export: exportRange,
  };
}

/** The query's first row; none is an error (the data is not what the benchmark needs). */
async function firstRow<T extends pg.QueryResultRow>(
  pool: pg.Pool,
  text: string,
  values: unknown[],
): Promise<T> {
  const { rows } = await pool.query<T>(text, values);
  if (!rows[0]) throw new Error(`no rows for: ${text}`);
  return rows[0];
}

/** The whale (or the one named) and a player with 20–50 rows (closest to 35). */
async function pickPlayers(pool: pg.Pool, whaleId: string | undefined) {
  // One pass over the transactions (the largest table): the whale and a player with 20–50 rows (closest to 35).
  const { rows: players } = await pool.query<{
    whale: string;
    whale_n: string;
    small: string;
    small_n: string;
  }>(`
    WITH counts AS (SELECT player_id, count(*) AS n FROM transactions GROUP BY player_id),
         whale AS (SELECT player_id, n FROM counts ORDER BY n DESC, player_id LIMIT 1),
         small AS (SELECT player_id, n FROM counts WHERE n BETWEEN 20 AND 50 ORDER BY abs(n - 35), player_id LIMIT 1)
    SELECT whale.player_id AS whale, whale.n AS whale_n, small.player_id AS small, small.n AS small_n
    FROM whale, small`);
  const picked = players[0];
  if (!picked) throw new Error("no whale and small player (20–50 transactions) found: is the data loaded?");
  let whale = { id: picked.whale, transactions: Number(picked.whale_n) };
  if (whaleId) {
    const { rows } = await pool.query<{ n: string }>(
      "SELECT count(*) AS n FROM transactions WHERE player_id = $1",
      [whaleId],
    );
    whale = { id: whaleId, transactions: Number(rows[0]?.n ?? 0) };
  }
  return { whale, small: { id: picked.small, transactions: Number(picked.small_n) } };
}

/** The whale's most frequent event type over the middle half of its history, and its most frequent event name. */
async function whaleFilters(pool: pg.Pool, whaleId: string) {
  const type = await firstRow<{ event_type: string }>(
    pool,
    "SELECT event_type::text FROM transactions WHERE player_id = $1 GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT 1",
    [whaleId],
  );
  const name = await firstRow<{ event_name: string; n: string }>(
    pool,
    "SELECT event_name, count(*) AS n FROM transactions WHERE player_id = $1 GROUP BY 1 ORDER BY 2 DESC, 1 LIMIT 1",
    [whaleId],
  );
  const span = await firstRow<{ lo: Date; hi: Date }>(
    pool,
    `SELECT min(date) + (max(date) - min(date)) / 4 AS lo, min(date) + (max(date) - min(date)) * 3 / 4 AS hi
     FROM transactions WHERE player_id = $1`,
    [whaleId],
  );
  const fromDate = iso(span.lo);
  const toDate = iso(span.hi);
  const typeDateCount = await firstRow<{ n: string }>(
    pool,
    "SELECT count(*) AS n FROM transactions WHERE player_id = $1 AND event_type::text = $2 AND date >= $3 AND date <= $4",
    [whaleId, type.event_type, fromDate, toDate],
  );
  return {
    typeDate: { eventType: type.event_type, fromDate, toDate, matches: Number(typeDateCount.n) },
    eventName: { value: name.event_name, matches: Number(name.n) },
  };
}

/** A from_date on the whale matching ≈min(100,000, its total) rows, and the rows it matches. */
async function whaleExport(pool: pg.Pool, whale: { id: string; transactions: number }) {
  const exportTarget = Math.max(1, Math.min(TARGET_EXPORT_ROWS, whale.transactions));
  const exportFrom = await firstRow<{ date: Date }>(
    pool,
    "SELECT date FROM transactions WHERE player_id = $1 ORDER BY date DESC, id DESC OFFSET $2 LIMIT 1",
    [whale.id, exportTarget - 1],
  );
  const exportFromDate = iso(exportFrom.date);
  const exportRows = await firstRow<{ n: string }>(
    pool,
    "SELECT count(*) AS n FROM transactions WHERE player_id = $1 AND date >= $2",
    [whale.id, exportFromDate],
  );
  return { fromDate: exportFromDate, rows: Number(exportRows.n) };
}

/** The lookup's terms: a name (with accents when one has them) typed plainly, the whale's newest transaction id. */
async function searchTerms(pool: pg.Pool, whaleId: string) {
  const accented = await pool.query<{ name: string }>(
    "SELECT name FROM players WHERE name ~ '[^\\x01-\\x7f]' ORDER BY id LIMIT 1",
  );
  const anyName =
    accented.rows[0] ??
    (await firstRow<{ name: string }>(pool, "SELECT name FROM players ORDER BY id LIMIT 1", []));
  const newest = await firstRow<{ id: string }>(
    pool,
    "SELECT id FROM transactions WHERE player_id = $1 ORDER BY date DESC, id DESC LIMIT 1",
    [whaleId],
  );
  return { name: plainName(anyName.name), transactionId: newest.id.toLowerCase() };
}
