import { stat } from "node:fs/promises";
import path from "node:path";
import type { ClientBase } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/platform/db/refresh-player-aggregates";
import { asBuffer } from "./as-buffer.ts";
import { loadChunks } from "./copy-rows.ts";
import {
  DAILY_STATS_COUNTS,
  DAILY_STATS_INSERT_TRIGGER,
  DAILY_STATS_KEY,
  dailyStatsSelectSql,
} from "./daily-stats-sql.ts";
import { mapInOrder } from "./map-in-order.ts";
import type { ImportKind } from "./parse-batch.ts";
import { defaultParseWorkers, ParsePool } from "./parse-pool.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { readLineBatches } from "./read-line-batches.ts";
import { dropDependents, quoteIdent, restoreDependents, tableDependents } from "./table-dependents.ts";
import { PLAYER_COPY_COLUMNS, TRANSACTION_COPY_COLUMNS } from "./table-rows.ts";

/*
 * db:import: NDJSON files in the API's shapes → players and transactions, in one database transaction.
 * Files are streamed in batches of lines, validated by worker threads, into temporary staging tables by COPY
 * (constant memory); what needs the whole file or the database (duplicate ids in the file, transactions of
 * unknown players) is checked there set-based; then the good rows go in with ON CONFLICT (id) DO NOTHING
 * (or, on the large-import path, under the table lock, minus the ids already present), so re-importing a
 * file changes nothing. Balances and KPIs of every player touched are then derived from the transactions in the database
 * (the file's values for them are validated, not stored), exactly as the seed and the generator do.
 */

export interface ImportOptions {
  playersFile?: string;
  transactionsFile?: string;
  /** Load nothing if any line is bad. */
  strict?: boolean;
  /** Drop and rebuild the indexes and keys of transactions around the insert; default: when the import is large (see BULK_MIN_ROWS). */
  rebuildIndexes?: boolean;
  /** false where the connection cannot COPY FROM STDIN (the embedded database): batched INSERTs instead. */
  copy?: boolean;
  /** Least number of new transactions for the large-import path (default BULK_MIN_ROWS; tests lower it). */
  bulkMinRows?: number;
  /** Worker threads that parse and validate lines; 0 parses on the calling thread. Default: one per core, up to 4. */
  parseWorkers?: number;
  /** Bytes of lines per parse batch (default about 1 MB); small values let tests span many batches. */
  batchBytes?: number;
  progress?: Progress;
  /** Called once per bad line with `<file>: line N: <field>: <reason>`. */
  onBadLine?: (message: string) => void;
}

export interface FileSummary {
  lines: number;
  bad: number;
  inserted: number;
  /** Good lines whose id was already in the database (left untouched). */
  existing: number;
}

export interface ImportSummary {
  players: FileSummary;
  transactions: FileSummary;
  refreshedPlayers: number;
  committed: boolean;
  /** Whether the large-import path (indexes rebuilt) was taken. */
  rebuiltIndexes: boolean;
}

/** At least this many transactions, and more than half as many as the table holds: the large-import path. */
export const BULK_MIN_ROWS = 100_000;

/** Files of at least this many bytes together are parsed by worker threads (see parse-pool.ts). */
export const PARALLEL_MIN_BYTES = 16 << 20;

const WORK_MEM = "256MB";
const STAGE_PLAYERS = "import_players_stage";
const STAGE_TRANSACTIONS = "import_transactions_stage";

/** Staged transactions whose id is already in the table: they would change nothing. */
const DROP_STAGED_KNOWN_IDS_SQL = `DELETE FROM ${STAGE_TRANSACTIONS} s USING transactions t WHERE t.id = s.id`;

/** A table's row count as the planner estimates it (free; exact enough to choose the import's path). */
const estimatedRowsSql = (table: string) =>
  `(SELECT GREATEST(reltuples, 0)::bigint FROM pg_class WHERE oid = '${table}'::regclass)`;

/** What every step of one import works with. */
interface ImportRun {
  client: ClientBase;
  options: ImportOptions;
  progress: Progress;
  pool: ParsePool;
  summary: ImportSummary;
}

/**
 * The import as steps, in one database transaction: stage and check each file, then (unless strict and
 * anything was bad) insert players, insert transactions by the live or the large path, derive the
 * aggregates of the players touched, commit. Any error rolls everything back.
 */
export async function importNdjson(client: ClientBase, options: ImportOptions): Promise<ImportSummary> {
  const run: ImportRun = {
    client,
    options,
    progress: options.progress ?? silentProgress(),
    pool: new ParsePool(await parseWorkerCount(options)),
    summary: emptyImportSummary(),
  };
  const { progress, summary, pool } = run;
  try {
    await beginImport(client);
    await stagePlayers(run);
    await stageTransactions(run);
    await pool.close(); // the rest is the database's work

    if (options.strict && summary.players.bad + summary.transactions.bad > 0) {
      progress.done();
      await client.query("ROLLBACK");
      return summary;
    }
    await insertPlayers(run);
    summary.rebuiltIndexes = await takeLargePath(run);
    summary.transactions.inserted = summary.rebuiltIndexes
      ? await insertTransactionsLarge(run)
      : await insertTransactionsLive(run);
    summary.transactions.existing =
      summary.transactions.lines - summary.transactions.bad - summary.transactions.inserted;
    await refreshTouchedPlayers(run);

    progress.phase("commit");
    await client.query("COMMIT");
    summary.committed = true;
    progress.done();
    return summary;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  } finally {
    await pool.close();
  }
}

const emptySummary = (): FileSummary => ({ lines: 0, bad: 0, inserted: 0, existing: 0 });

function emptyImportSummary(): ImportSummary {
  return {
    players: emptySummary(),
    transactions: emptySummary(),
    refreshedPlayers: 0,
    committed: false,
    rebuiltIndexes: false,
  };
}

/** Starting workers costs about a second (each loads the schemas); small files are parsed inline. */
async function parseWorkerCount(options: ImportOptions): Promise<number> {
  // Stated even when the count is given: a missing file fails here, before the transaction begins.
  const fileBytes = await Promise.all(
    [options.playersFile, options.transactionsFile].map((f) => (f ? stat(f).then((s) => s.size) : 0)),
  );
  return (
    options.parseWorkers ??
    (fileBytes.reduce((a, b) => a + b, 0) >= PARALLEL_MIN_BYTES ? defaultParseWorkers() : 0)
  );
}

/** The transaction, its settings, and the temporary tables it stages into (dropped at the commit). */
async function beginImport(client: ClientBase): Promise<void> {
  await client.query("BEGIN");
  await client.query(`SET LOCAL work_mem = '${WORK_MEM}'`);
  await client.query("SET LOCAL synchronous_commit = off");
  await client.query(
    `CREATE TEMP TABLE ${STAGE_PLAYERS} (line bigint NOT NULL, LIKE players INCLUDING DEFAULTS) ON COMMIT DROP`,
  );
  await client.query(
    `CREATE TEMP TABLE ${STAGE_TRANSACTIONS} (line bigint NOT NULL, LIKE transactions INCLUDING DEFAULTS) ON COMMIT DROP`,
  );
  await client.query("CREATE TEMP TABLE import_touched (id text PRIMARY KEY) ON COMMIT DROP");
}

const reporter = (run: ImportRun, file: string) => (line: number, reason: string) =>
  run.options.onBadLine?.(`${path.basename(file)}: line ${line}: ${reason}`);

/** (line, reason) of staged players whose id an earlier line of the file already has. */
const DUPLICATE_PLAYERS_SQL = `SELECT line, 'id: duplicate of line ' || first_line AS reason FROM (
     SELECT line, min(line) OVER (PARTITION BY id) AS first_line FROM ${STAGE_PLAYERS}) d
   WHERE line <> first_line`;

/** (line, reason) of staged transactions with a duplicate id or a player in neither the database nor the file. */
const BAD_TRANSACTIONS_SQL = `SELECT line, reason FROM (
     SELECT line, CASE
       WHEN line <> first_line THEN 'id: duplicate of line ' || first_line
       ELSE 'player_id: no player ' || player_id || ' in the database or in the players file' END AS reason,
       (line <> first_line) OR (NOT EXISTS (SELECT 1 FROM players p WHERE p.id = d.player_id)
         AND NOT EXISTS (SELECT 1 FROM ${STAGE_PLAYERS} sp WHERE sp.id = d.player_id)) AS rejected
     FROM (SELECT line, player_id, min(line) OVER (PARTITION BY id) AS first_line FROM ${STAGE_TRANSACTIONS}) d
   ) r WHERE rejected`;

async function stagePlayers(run: ImportRun): Promise<void> {
  const file = run.options.playersFile;
  if (!file) return;
  run.progress.phase(`read and validate ${path.basename(file)}`);
  const staged = await stageFile(run, file, "players", STAGE_PLAYERS, PLAYER_COPY_COLUMNS);
  run.summary.players.lines = staged.lines;
  run.summary.players.bad =
    staged.bad + (await rejectStaged(run.client, STAGE_PLAYERS, DUPLICATE_PLAYERS_SQL, reporter(run, file)));
}

async function stageTransactions(run: ImportRun): Promise<void> {
  const file = run.options.transactionsFile;
  if (!file) return;
  run.progress.phase(`read and validate ${path.basename(file)}`);
  const staged = await stageFile(run, file, "transactions", STAGE_TRANSACTIONS, TRANSACTION_COPY_COLUMNS);
  run.summary.transactions.lines = staged.lines;
  run.progress.phase("check duplicate ids and unknown players");
  run.summary.transactions.bad =
    staged.bad +
    (await rejectStaged(run.client, STAGE_TRANSACTIONS, BAD_TRANSACTIONS_SQL, reporter(run, file)));
}

/**
 * Streams `file` into the staging `table`: batches of lines go to the parse pool, at most `inFlight` at a
 * time (memory stays bounded whatever the file's size), and their results are taken in submission order, so
 * COPY rows and bad-line reports come out in line order while the next batches are being parsed.
 */
async function stageFile(
  run: ImportRun,
  file: string,
  kind: ImportKind,
  table: string,
  columns: readonly string[],
): Promise<{ lines: number; bad: number }> {
  const { pool, progress, options } = run;
  const report = reporter(run, file);
  let lines = 0;
  let bad = 0;
  const inFlight = Math.max(2, pool.size * 2);
  async function* rows() {
    const batches = readLineBatches(file, options.batchBytes || undefined);
    for await (const result of mapInOrder(batches, (batch) => pool.run(kind, batch), inFlight)) {
      lines += result.lines;
      for (let i = 0; i < result.bad.length; i += 2) {
        bad++;
        report(result.bad[i] as number, result.bad[i + 1] as string);
      }
      progress.rows(lines);
      if (result.copy.length) yield asBuffer(result.copy); // arrives as a plain Uint8Array
    }
  }
  const copy = options.copy ?? true;
  await loadChunks(run.client, { table, columns: ["line", ...columns], copy }, rows());
  return { lines, bad };
}

/** Deletes the staged rows that `select` (line, reason) marks as bad and reports them, in line order, page by page. */
async function rejectStaged(
  client: ClientBase,
  table: string,
  select: string,
  report: (line: number, reason: string) => void,
): Promise<number> {
  // Materialized once, then read in pages so memory stays bounded.
  await client.query(`CREATE TEMP TABLE import_rejects ON COMMIT DROP AS ${select}`);
  let count = 0;
  let after = 0;
  for (;;) {
    const { rows } = await client.query<{ line: string; reason: string }>(
      "SELECT line, reason FROM import_rejects WHERE line > $1 ORDER BY line LIMIT 10000",
      [after],
    );
    if (!rows.length) break;
    for (const r of rows) report(Number(r.line), r.reason);
    count += rows.length;
    after = Number(rows[rows.length - 1]?.line);
  }
  await client.query(`DELETE FROM ${table} s USING import_rejects r WHERE s.line = r.line`);
  await client.query("DROP TABLE import_rejects");
  return count;
}

async function insertPlayers({ client, progress, summary }: ImportRun): Promise<void> {
  progress.phase("insert players");
  const inserted = await client.query(
    `WITH ins AS (
       INSERT INTO players (${PLAYER_COPY_COLUMNS.join(", ")})
       SELECT ${PLAYER_COPY_COLUMNS.join(", ")} FROM ${STAGE_PLAYERS} ORDER BY id
       ON CONFLICT (id) DO NOTHING RETURNING id)
     INSERT INTO import_touched SELECT id FROM ins`,
  );
  summary.players.inserted = inserted.rowCount ?? 0;
  summary.players.existing = summary.players.lines - summary.players.bad - summary.players.inserted;
  progress.rows(summary.players.inserted);
}

/**
 * A large import (an initial load, typically) goes in like db:generate's: the indexes and keys dropped and
 * rebuilt by one sort each, the stats trigger paused and its work done set-based. That locks `transactions`
 * until the commit, so small imports keep everything live. `rebuildIndexes` decides when given.
 */
async function takeLargePath({ client, options, progress, summary }: ImportRun): Promise<boolean> {
  const staged = summary.transactions.lines - summary.transactions.bad;
  const present = await client.query<{ n: string }>(`SELECT ${estimatedRowsSql("transactions")} AS n`);
  const large = (rows: number) =>
    rows >= (options.bulkMinRows ?? BULK_MIN_ROWS) && rows > Number(present.rows[0]?.n ?? 0) / 2;
  if (options.rebuildIndexes !== undefined) return options.rebuildIndexes;
  if (!large(staged)) return false;
  // Ids already present are left alone anyway; only new rows count, so importing a large file again
  // does not lock the table and rebuild its indexes for nothing. (Checked again under the lock.)
  progress.phase("look up ids already present");
  const known = await client.query(DROP_STAGED_KNOWN_IDS_SQL);
  return large(staged - (known.rowCount ?? 0));
}

const COLUMNS = TRANSACTION_COPY_COLUMNS.join(", ");

/** The live path: in index order, so each player's index pages are touched together; the trigger adds the stats. */
async function insertTransactionsLive({ client, progress }: ImportRun): Promise<number> {
  progress.phase("insert transactions");
  const result = await client.query<{ n: string }>(
    `WITH ins AS (
       INSERT INTO transactions (${COLUMNS})
       SELECT ${COLUMNS} FROM ${STAGE_TRANSACTIONS} ORDER BY player_id, date DESC, id DESC
       ON CONFLICT (id) DO NOTHING RETURNING player_id),
     touched AS (INSERT INTO import_touched SELECT DISTINCT player_id FROM ins ON CONFLICT DO NOTHING)
     SELECT count(*) AS n FROM ins`,
  );
  const inserted = Number(result.rows[0]?.n ?? 0);
  progress.rows(inserted);
  return inserted;
}

/** The large path: keys and indexes off, a sorted insert, the stats set-based, keys and indexes rebuilt. */
async function insertTransactionsLarge({ client, progress }: ImportRun): Promise<number> {
  progress.phase("large import: drop indexes and keys of transactions, pause stats trigger");
  const dependents = await pauseTransactionUpkeep(client);

  progress.phase("insert transactions");
  await client.query(DROP_STAGED_KNOWN_IDS_SQL); // under the lock now: nothing can add ids meanwhile
  // In the order of the player indexes, so each player's rows share heap pages; sorted in memory
  // (2M rows need about 700 MB; beyond work_mem the sort spills to disk, a second slower).
  await client.query("SET LOCAL work_mem = '1GB'");
  const result = await client.query(
    `INSERT INTO transactions (${COLUMNS})
     SELECT ${COLUMNS} FROM ${STAGE_TRANSACTIONS} ORDER BY player_id, date DESC, id DESC`,
  );
  await client.query(`SET LOCAL work_mem = '${WORK_MEM}'`);
  const inserted = result.rowCount ?? 0;
  progress.rows(inserted);
  await client.query(
    `INSERT INTO import_touched SELECT DISTINCT player_id FROM ${STAGE_TRANSACTIONS} ON CONFLICT DO NOTHING`,
  );

  progress.phase("add the daily stats of the inserted transactions");
  await addStagedDailyStats(client);

  progress.phase("rebuild indexes and keys of transactions");
  await restoreDependents(client, "transactions", dependents);
  await client.query(`ALTER TABLE transactions ENABLE TRIGGER ${quoteIdent(DAILY_STATS_INSERT_TRIGGER)}`);
  return inserted;
}

/**
 * Drops the indexes and keys of `transactions` (returned, to be restored) and pauses its stats trigger.
 * The primary key goes too: with the table locked (DROP INDEX takes it exclusively until the commit),
 * "already present" is one hash anti-join instead of a speculative insertion per row, and rebuilding the key
 * by one sort is far cheaper than 2M retail inserts. Re-adding it re-checks uniqueness.
 */
async function pauseTransactionUpkeep(client: ClientBase) {
  const dependents = await tableDependents(client, "transactions");
  await dropDependents(client, "transactions", dependents);
  await client.query(`ALTER TABLE transactions DISABLE TRIGGER ${quoteIdent(DAILY_STATS_INSERT_TRIGGER)}`);
  // Nothing else writes the stats while transactions is locked; this keeps it so for direct writers.
  await client.query("LOCK TABLE transaction_daily_stats IN SHARE ROW EXCLUSIVE MODE");
  await client.query(`ANALYZE ${STAGE_TRANSACTIONS}`); // sort-based plans for the statements that follow
  return dependents;
}

/**
 * What the paused trigger would have added for the staged transactions, as an UPDATE of existing keys and
 * an INSERT of new ones in key order: ON CONFLICT DO UPDATE costs a speculative insertion per row, several
 * times slower. Into (nearly) empty stats, an initial load, the key is rebuilt by one sort after.
 */
async function addStagedDailyStats(client: ClientBase): Promise<void> {
  await client.query("SET LOCAL maintenance_work_mem = '1GB'"); // index builds sort in memory
  await client.query(
    `CREATE TEMP TABLE import_stats ON COMMIT DROP AS ${dailyStatsSelectSql(STAGE_TRANSACTIONS)}`,
  );
  const key = (a: string, b: string) => DAILY_STATS_KEY.map((k) => `${a}.${k} = ${b}.${k}`).join(" AND ");
  const counts = await client.query<{ present: string; adding: string }>(
    `SELECT ${estimatedRowsSql("transaction_daily_stats")} AS present,
            (SELECT count(*) FROM import_stats) AS adding`,
  );
  const row = counts.rows[0];
  const dependents =
    Number(row?.present ?? 0) < Number(row?.adding ?? 0) / 2
      ? await tableDependents(client, "transaction_daily_stats")
      : null;
  if (dependents) await dropDependents(client, "transaction_daily_stats", dependents);
  await client.query(
    `UPDATE transaction_daily_stats s
     SET ${DAILY_STATS_COUNTS.map((c) => `${c} = s.${c} + g.${c}`).join(", ")}
     FROM import_stats g WHERE ${key("s", "g")}`,
  );
  await client.query(
    `INSERT INTO transaction_daily_stats (${[...DAILY_STATS_KEY, ...DAILY_STATS_COUNTS].join(", ")})
     SELECT ${[...DAILY_STATS_KEY, ...DAILY_STATS_COUNTS].join(", ")} FROM import_stats g
     WHERE NOT EXISTS (SELECT 1 FROM transaction_daily_stats s WHERE ${key("s", "g")})
     ORDER BY ${DAILY_STATS_KEY.join(", ")}`,
  );
  await client.query("DROP TABLE import_stats");
  if (dependents) await restoreDependents(client, "transaction_daily_stats", dependents);
}

/** Balances and KPIs of every player touched, derived from the transactions now in the database. */
async function refreshTouchedPlayers({ client, progress, summary }: ImportRun): Promise<void> {
  progress.phase("derive balances and KPIs of the players touched");
  const touched = await client.query<{ ids: string[] | null }>(
    "SELECT array_agg(id) AS ids FROM import_touched",
  );
  const ids = touched.rows[0]?.ids ?? [];
  if (ids.length) await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [ids]);
  summary.refreshedPlayers = ids.length;
  progress.rows(ids.length);
}
