import { createReadStream } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline";
import type { ClientBase } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/lib/db/refresh-player-aggregates";
import { CopyChunks, loadChunks } from "./copy-rows.ts";
import { dailyStatsInsertSql } from "./daily-stats-sql.ts";
import {
  DAILY_STATS_INSERT_TRIGGER,
  PLAYER_COPY_COLUMNS,
  TRANSACTION_COPY_COLUMNS,
} from "./generate-dataset.ts";
import {
  importPlayerRow,
  importTransactionRow,
  type LineResult,
  parsePlayerLine,
  parseTransactionLine,
} from "./parse-import-line.ts";
import { type Progress, silentProgress } from "./progress.ts";
import {
  dropDependents,
  quoteIdent,
  restoreDependents,
  type TableDependents,
  tableDependents,
} from "./table-dependents.ts";

/*
 * db:import: NDJSON files in the API's shapes → players and transactions, in one database transaction.
 * Files are streamed line by line into temporary staging tables by COPY (constant memory); what needs the
 * whole file or the database (duplicate ids in the file, transactions of unknown players) is checked there
 * set-based; then the good rows go in with ON CONFLICT (id) DO NOTHING, so re-importing a file changes
 * nothing. Balances and KPIs of every player touched are then derived from the transactions in the database
 * (the file's values for them are validated, not stored), exactly as the seed and the generator do.
 */

export interface ImportOptions {
  playersFile?: string;
  transactionsFile?: string;
  /** Load nothing if any line is bad. */
  strict?: boolean;
  /** Drop and rebuild the secondary indexes around the insert; default: when the import is large (see BULK_MIN_ROWS). */
  rebuildIndexes?: boolean;
  /** false where the connection cannot COPY FROM STDIN (the embedded database): batched INSERTs instead. */
  copy?: boolean;
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

/** What the stats trigger does for an INSERT, applied to the rows of the CTE `ins` instead. */
const STATS_UPSERT_SQL = dailyStatsInsertSql("ins", { upsert: true });

const STAGE_PLAYERS = "import_players_stage";
const STAGE_TRANSACTIONS = "import_transactions_stage";

async function stageFile<T>(
  client: ClientBase,
  file: string,
  table: string,
  columns: readonly string[],
  parseLine: (text: string) => LineResult<T>,
  toRow: (value: T) => string[],
  report: (line: number, reason: string) => void,
  progress: Progress,
  copy: boolean,
): Promise<{ lines: number; bad: number }> {
  const chunks = new CopyChunks();
  let lines = 0;
  let bad = 0;
  async function* rows() {
    const input = createInterface({
      input: createReadStream(file, "utf8"),
      crlfDelay: Number.POSITIVE_INFINITY,
    });
    let lineNo = 0;
    for await (const text of input) {
      lineNo++;
      if (text.trim() === "") continue; // blank lines (a trailing newline) are not records
      lines++;
      const result = parseLine(text);
      if (result.ok) chunks.push([String(lineNo), ...toRow(result.value)]);
      else {
        bad++;
        report(lineNo, result.reason);
      }
      const ready = chunks.take();
      if (ready.length) {
        progress.rows(lines);
        yield* ready;
      }
    }
    yield* chunks.take(true);
    progress.rows(lines);
  }
  await loadChunks(client, { table, columns: ["line", ...columns], copy }, rows());
  return { lines, bad };
}

/** Deletes the staged rows that `where` marks as bad and reports them, in line order, page by page. */
async function rejectStaged(
  client: ClientBase,
  table: string,
  select: string,
  report: (line: number, reason: string) => void,
): Promise<number> {
  // `select` yields (line, reason); materialized once, then read in pages so memory stays bounded.
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

const emptySummary = (): FileSummary => ({ lines: 0, bad: 0, inserted: 0, existing: 0 });

export async function importNdjson(client: ClientBase, options: ImportOptions): Promise<ImportSummary> {
  const progress = options.progress ?? silentProgress();
  const summary: ImportSummary = {
    players: emptySummary(),
    transactions: emptySummary(),
    refreshedPlayers: 0,
    committed: false,
    rebuiltIndexes: false,
  };
  const reporter = (file: string | undefined) => (line: number, reason: string) =>
    options.onBadLine?.(`${file ? path.basename(file) : "?"}: line ${line}: ${reason}`);

  await client.query("BEGIN");
  try {
    await client.query("SET LOCAL work_mem = '256MB'");
    await client.query("SET LOCAL synchronous_commit = off");
    await client.query(
      `CREATE TEMP TABLE ${STAGE_PLAYERS} (line bigint NOT NULL, LIKE players INCLUDING DEFAULTS) ON COMMIT DROP`,
    );
    await client.query(
      `CREATE TEMP TABLE ${STAGE_TRANSACTIONS} (line bigint NOT NULL, LIKE transactions) ON COMMIT DROP`,
    );
    await client.query("CREATE TEMP TABLE import_touched (id text PRIMARY KEY) ON COMMIT DROP");

    if (options.playersFile) {
      progress.phase(`read and validate ${path.basename(options.playersFile)}`);
      const staged = await stageFile(
        client,
        options.playersFile,
        STAGE_PLAYERS,
        PLAYER_COPY_COLUMNS,
        parsePlayerLine,
        importPlayerRow,
        reporter(options.playersFile),
        progress,
        options.copy ?? true,
      );
      summary.players.lines = staged.lines;
      summary.players.bad =
        staged.bad +
        (await rejectStaged(
          client,
          STAGE_PLAYERS,
          `SELECT line, 'id: duplicate of line ' || first_line AS reason FROM (
             SELECT line, min(line) OVER (PARTITION BY id) AS first_line FROM ${STAGE_PLAYERS}) d
           WHERE line <> first_line`,
          reporter(options.playersFile),
        ));
    }
    if (options.transactionsFile) {
      progress.phase(`read and validate ${path.basename(options.transactionsFile)}`);
      const staged = await stageFile(
        client,
        options.transactionsFile,
        STAGE_TRANSACTIONS,
        TRANSACTION_COPY_COLUMNS,
        parseTransactionLine,
        importTransactionRow,
        reporter(options.transactionsFile),
        progress,
        options.copy ?? true,
      );
      summary.transactions.lines = staged.lines;
      progress.phase("check duplicate ids and unknown players");
      summary.transactions.bad =
        staged.bad +
        (await rejectStaged(
          client,
          STAGE_TRANSACTIONS,
          `SELECT line, reason FROM (
             SELECT line, CASE
               WHEN line <> first_line THEN 'id: duplicate of line ' || first_line
               ELSE 'player_id: no player ' || player_id || ' in the database or in the players file' END AS reason,
               (line <> first_line) OR (NOT EXISTS (SELECT 1 FROM players p WHERE p.id = d.player_id)
                 AND NOT EXISTS (SELECT 1 FROM ${STAGE_PLAYERS} sp WHERE sp.id = d.player_id)) AS rejected
             FROM (SELECT line, player_id, min(line) OVER (PARTITION BY id) AS first_line FROM ${STAGE_TRANSACTIONS}) d
           ) r WHERE rejected`,
          reporter(options.transactionsFile),
        ));
    }

    const anyBad = summary.players.bad + summary.transactions.bad > 0;
    if (options.strict && anyBad) {
      progress.done();
      await client.query("ROLLBACK");
      return summary;
    }

    progress.phase("insert players");
    const insertedPlayers = await client.query(
      `WITH ins AS (
         INSERT INTO players (${PLAYER_COPY_COLUMNS.join(", ")})
         SELECT ${PLAYER_COPY_COLUMNS.join(", ")} FROM ${STAGE_PLAYERS} ORDER BY id
         ON CONFLICT (id) DO NOTHING RETURNING id)
       INSERT INTO import_touched SELECT id FROM ins`,
    );
    summary.players.inserted = insertedPlayers.rowCount ?? 0;
    summary.players.existing = summary.players.lines - summary.players.bad - summary.players.inserted;
    progress.rows(summary.players.inserted);

    // A large import (an initial load, typically) goes in like db:generate's: secondary indexes and the
    // foreign key dropped and rebuilt by one sort each, the stats trigger paused and its work done in the
    // same statement. That locks `transactions` until the commit, so small imports keep everything live.
    const stagedTransactions = summary.transactions.lines - summary.transactions.bad;
    const present = await client.query<{ n: string }>(
      "SELECT GREATEST(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'transactions'::regclass",
    );
    const bulk =
      options.rebuildIndexes ??
      (stagedTransactions >= BULK_MIN_ROWS && stagedTransactions > Number(present.rows[0]?.n ?? 0) / 2);
    summary.rebuiltIndexes = bulk;
    let dependents: TableDependents | null = null;
    if (bulk) {
      progress.phase(
        "large import: drop secondary indexes and foreign key of transactions, pause stats trigger",
      );
      const all = await tableDependents(client, "transactions");
      dependents = { indexes: all.indexes, constraints: all.constraints.filter((c) => c.type === "f") };
      await dropDependents(client, "transactions", dependents);
      await client.query(
        `ALTER TABLE transactions DISABLE TRIGGER ${quoteIdent(DAILY_STATS_INSERT_TRIGGER)}`,
      );
    }

    progress.phase("insert transactions");
    const columns = TRANSACTION_COPY_COLUMNS.join(", ");
    // In index order, so each player's index pages are touched together.
    const insertedTransactions = await client.query<{ n: string }>(
      bulk
        ? `WITH ins AS (
             INSERT INTO transactions (${columns})
             SELECT ${columns} FROM ${STAGE_TRANSACTIONS} ORDER BY player_id, date DESC, id DESC
             ON CONFLICT (id) DO NOTHING RETURNING player_id, date, event_type, event_name, created_by, amount, completed_at),
           touched AS (INSERT INTO import_touched SELECT DISTINCT player_id FROM ins ON CONFLICT DO NOTHING),
           stats AS (${STATS_UPSERT_SQL})
           SELECT count(*) AS n FROM ins`
        : `WITH ins AS (
             INSERT INTO transactions (${columns})
             SELECT ${columns} FROM ${STAGE_TRANSACTIONS} ORDER BY player_id, date DESC, id DESC
             ON CONFLICT (id) DO NOTHING RETURNING player_id),
           touched AS (INSERT INTO import_touched SELECT DISTINCT player_id FROM ins ON CONFLICT DO NOTHING)
           SELECT count(*) AS n FROM ins`,
    );
    summary.transactions.inserted = Number(insertedTransactions.rows[0]?.n ?? 0);
    summary.transactions.existing =
      summary.transactions.lines - summary.transactions.bad - summary.transactions.inserted;
    progress.rows(summary.transactions.inserted);
    if (dependents) {
      progress.phase("rebuild secondary indexes and foreign key of transactions");
      await client.query("SET LOCAL maintenance_work_mem = '1GB'");
      await restoreDependents(client, "transactions", dependents);
      await client.query(`ALTER TABLE transactions ENABLE TRIGGER ${quoteIdent(DAILY_STATS_INSERT_TRIGGER)}`);
    }

    progress.phase("derive balances and KPIs of the players touched");
    const touched = await client.query<{ ids: string[] | null }>(
      "SELECT array_agg(id) AS ids FROM import_touched",
    );
    const ids = touched.rows[0]?.ids ?? [];
    if (ids.length) await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [ids]);
    summary.refreshedPlayers = ids.length;
    progress.rows(ids.length);

    progress.phase("commit");
    await client.query("COMMIT");
    summary.committed = true;
    progress.done();
    return summary;
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
}
