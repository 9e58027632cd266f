import type { ClientBase } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "@/platform/db/refresh-player-aggregates";
import { generatePlayer, transactionIdSequence } from "@/prisma/demo-data/players";
import { createRng } from "@/prisma/demo-data/random";
import type { DemoTransaction } from "@/prisma/demo-data/wallet";
import { changeFeedTriggersSql } from "@/tools/data/change-feed-triggers";
import { CopyChunks, loadChunks } from "./copy-rows.ts";
import { DAILY_STATS_INSERT_TRIGGER, dailyStatsInsertSql } from "./daily-stats-sql.ts";
import { planTransactionCounts } from "./plan-transaction-counts.ts";
import { type Progress, silentProgress } from "./progress.ts";
import { dropDependents, quoteIdent as q, restoreDependents, tableDependents } from "./table-dependents.ts";
import {
  PLAYER_COPY_COLUMNS,
  playerCopyRow,
  TRANSACTION_COPY_COLUMNS,
  transactionCopyRow,
} from "./table-rows.ts";

/*
 * A large deterministic data set of the demo's shape (same wallet simulation, same derivation of balances
 * and KPIs), loaded through PostgreSQL's bulk paths: one transaction that empties the tables, drops the
 * secondary indexes and the foreign key of `transactions`, switches its daily-stats insert trigger off, COPYs
 * the rows, then rebuilds indexes, key, stats and player aggregates set-based. Either all of it lands or
 * nothing changes.
 */

export interface GenerateOptions {
  players: number;
  transactions: number;
  seed?: number;
  /** Players in the benchmark manager's book (BENCH_BOOK_MANAGER); default 1,000. */
  bookSize?: number;
  /** false: batched INSERTs instead of COPY (for a server that cannot COPY FROM STDIN). */
  copy?: boolean;
  /** false: keep the change feed's row triggers on (only to measure what pausing them saves). */
  pauseFeedTriggers?: boolean;
  progress?: Progress;
}

export const DEFAULT_GENERATE_SEED = 20261121;

/** The VIP manager whose book db:generate fills for the portfolio benchmark (`--book N`, default 1,000 players). */
export const BENCH_BOOK_MANAGER = "Portfolio Bench";
export const DEFAULT_BOOK_SIZE = 1_000;

/**
 * The benchmark manager's book, deterministically: the largest player (the whale, the costliest row) and every
 * (players / size)-th player after it, `size` players in all (fewer when the data set is smaller).
 */
export function benchBook(counts: readonly number[], players: number, size: number): ReadonlySet<number> {
  const book = new Set<number>();
  if (size <= 0) return book;
  let whale = 1;
  for (let n = 1; n <= players; n++) if ((counts[n] ?? 0) > (counts[whale] ?? 0)) whale = n;
  book.add(whale);
  const stride = Math.max(1, Math.floor(players / size));
  for (let n = stride; n <= players && book.size < size; n += stride) book.add(n);
  return book;
}

const digits = (n: number) => String(n).length;

/**
 * The generated data set as COPY chunks: transactions streamed as they are simulated, players collected
 * (their last_login depends on their history) and handed out at the end via `players()`.
 */
export function generateChunks(options: {
  players: number;
  transactions: number;
  seed?: number;
  bookSize?: number;
}) {
  const seed = options.seed ?? DEFAULT_GENERATE_SEED;
  const counts = planTransactionCounts(options.players, options.transactions, seed);
  const book = benchBook(counts, options.players, options.bookSize ?? DEFAULT_BOOK_SIZE);
  const rng = createRng(seed);
  const txChunks = new CopyChunks();
  const playerChunks = new CopyChunks();
  const gen = {
    nextTxId: transactionIdSequence(Math.max(10, digits(options.transactions))),
    emit: (tx: DemoTransaction) => txChunks.push(transactionCopyRow(tx, tx.amount)),
    countFor: (n: number) => counts[n] ?? 0,
    idWidth: Math.max(6, digits(options.players)),
    // Decided after the random draws: the players themselves stay what they were.
    managerFor: (n: number, drawn: string | null) => (book.has(n) ? BENCH_BOOK_MANAGER : drawn),
  };
  return {
    counts,
    get transactionRows() {
      return txChunks.rows;
    },
    *transactions(): Generator<string> {
      for (let n = 1; n <= options.players; n++) {
        const player = generatePlayer(n, rng, gen);
        playerChunks.push(playerCopyRow(player, player));
        yield* txChunks.take();
      }
      yield* txChunks.take(true);
    },
    *players(): Generator<string> {
      yield* playerChunks.take(true);
    },
  };
}

/** The table is empty and its primary key dropped while this runs (see table-dependents). */
const STATS_REBUILD_SQL = dailyStatsInsertSql("transactions", { upsert: false });

export interface GenerateResult {
  players: number;
  transactions: number;
  largest: { playerId: string; transactions: number };
}

/** Replaces all players and transactions of the database behind `client` with a generated data set. */
export async function generateDataset(client: ClientBase, options: GenerateOptions): Promise<GenerateResult> {
  const progress = options.progress ?? silentProgress();
  const data = generateChunks(options);
  const useCopy = options.copy ?? true;
  const feedTriggers = options.pauseFeedTriggers ?? true;
  await client.query("BEGIN");
  try {
    // Bulk-load settings for this transaction only: big sorts for the index builds and the GROUP BY.
    await client.query("SET LOCAL maintenance_work_mem = '1GB'");
    await client.query("SET LOCAL work_mem = '1GB'");
    await client.query("SET LOCAL synchronous_commit = off");
    progress.phase("prepare (empty tables, drop indexes and keys of transactions, pause stats trigger)");
    await client.query("TRUNCATE transactions, players");
    const dependents = await tableDependents(client, "transactions");
    await dropDependents(client, "transactions", dependents);
    await client.query(`ALTER TABLE transactions DISABLE TRIGGER ${q(DAILY_STATS_INSERT_TRIGGER)}`);
    // The TRUNCATE logged one `reset` change, which stands for every row written here: the per-row feed
    // triggers would only capture millions of rows to log nothing (docs/change-feed.md).
    if (feedTriggers) for (const sql of changeFeedTriggersSql("DISABLE")) await client.query(sql);

    progress.phase("copy transactions (simulating wallets)");
    const counting = async function* () {
      for (const chunk of data.transactions()) {
        yield chunk;
        progress.rows(data.transactionRows);
      }
    };
    // FREEZE: the table was emptied in this transaction, so rows can be written frozen and all-visible.
    await loadChunks(
      client,
      { table: "transactions", columns: TRANSACTION_COPY_COLUMNS, copy: useCopy, freeze: true },
      counting(),
    );
    progress.rows(data.transactionRows);

    progress.phase("copy players");
    await loadChunks(
      client,
      { table: "players", columns: PLAYER_COPY_COLUMNS, copy: useCopy, freeze: true },
      data.players(),
    );
    progress.rows(options.players);

    progress.phase("rebuild indexes, keys and foreign key of transactions");
    await restoreDependents(client, "transactions", dependents);
    await client.query(`ALTER TABLE transactions ENABLE TRIGGER ${q(DAILY_STATS_INSERT_TRIGGER)}`);
    progress.phase("rebuild transaction_daily_stats");
    // Filling an empty table and then building its key by one sort beats millions of random key inserts.
    const statsDependents = await tableDependents(client, "transaction_daily_stats");
    await dropDependents(client, "transaction_daily_stats", statsDependents);
    await client.query(STATS_REBUILD_SQL);
    await restoreDependents(client, "transaction_daily_stats", statsDependents);
    progress.phase("derive balances and KPIs of all players");
    await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [null]);
    if (feedTriggers) for (const sql of changeFeedTriggersSql("ENABLE")) await client.query(sql);
    progress.phase("commit");
    await client.query("COMMIT");
  } catch (error) {
    await client.query("ROLLBACK").catch(() => {});
    throw error;
  }
  progress.phase("vacuum analyze");
  // Index-only scans need the visibility map, the planner needs statistics.
  await client.query("VACUUM ANALYZE players");
  await client.query("VACUUM ANALYZE transactions");
  await client.query("VACUUM ANALYZE transaction_daily_stats");
  progress.done();
  let largest = 1;
  for (let n = 1; n < data.counts.length; n++)
    if ((data.counts[n] ?? 0) > (data.counts[largest] ?? 0)) largest = n;
  return {
    players: options.players,
    transactions: data.transactionRows,
    largest: {
      playerId: `P${String(largest).padStart(Math.max(6, digits(options.players)), "0")}`,
      transactions: data.counts[largest] ?? 0,
    },
  };
}
