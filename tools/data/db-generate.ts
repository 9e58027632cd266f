/*
 * npm run db:generate -- --players N --transactions M [--seed S] [--book B]
 * Replaces the players and transactions of DATABASE_URL (or of the embedded database) with a generated,
 * deterministic data set. See tools/data/generate-dataset.ts.
 */
import { commandArgs } from "../command-args.ts";
import { openDatabaseTarget } from "./database-target.ts";
import {
  BENCH_BOOK_MANAGER,
  DEFAULT_BOOK_SIZE,
  DEFAULT_GENERATE_SEED,
  generateDataset,
} from "./generate-dataset.ts";
import { createProgress } from "./progress.ts";

const HELP = `usage: npm run db:generate -- --players N --transactions M [--seed S] [--book B]

Fills the database with deterministic demo-shaped data: N players and exactly M transactions from the
demo's wallet simulation, skewed like real traffic (a long tail of small players, a few heavy ones, and
one whale with 12% of all transactions). The same seed always gives the same rows (default seed ${DEFAULT_GENERATE_SEED}).
One VIP manager, "${BENCH_BOOK_MANAGER}", gets a book of B players (default ${DEFAULT_BOOK_SIZE}: the whale and every
(N / B)-th player) for the portfolio benchmark; the other managers keep the demo's share.
Balances, KPIs and transaction_daily_stats are derived from the transactions in the database.

REPLACES all players and transactions of the target database.
Target: DATABASE_URL (migrated with npm run db:migrate); without it, the embedded database in
EMBEDDED_DB_DIR or .data/pglite (slower; the app must not be running at the same time).`;

const whole = (name: string, text: string | undefined, min: number): number => {
  if (text === undefined || !/^\d[\d_]*$/.test(text) || Number(text.replace(/_/g, "")) < min) {
    console.error(`db:generate: --${name} must be a whole number ≥ ${min}\n\n${HELP}`);
    process.exit(2);
  }
  return Number(text.replace(/_/g, ""));
};

const values = commandArgs("db:generate", HELP, {
  players: { type: "string" },
  transactions: { type: "string" },
  seed: { type: "string" },
  book: { type: "string" },
});
const players = whole("players", values.players, 1);
const transactions = whole("transactions", values.transactions, 0);
const seed = values.seed === undefined ? DEFAULT_GENERATE_SEED : whole("seed", values.seed, 0);
const bookSize = values.book === undefined ? DEFAULT_BOOK_SIZE : whole("book", values.book, 0);

const target = await openDatabaseTarget();
console.log(
  `db:generate: replacing all players and transactions in ${target.describe} with ${players.toLocaleString("en")} players and ${transactions.toLocaleString("en")} transactions (seed ${seed}).`,
);
const started = performance.now();
try {
  const result = await generateDataset(target.client, {
    players,
    transactions,
    seed,
    bookSize,
    copy: !target.embedded, // pglite-socket cannot COPY FROM STDIN
    progress: createProgress(),
  });
  const seconds = (performance.now() - started) / 1000;
  console.log(
    `db:generate: loaded ${result.players.toLocaleString("en")} players and ${result.transactions.toLocaleString("en")} transactions in ${seconds.toFixed(1)} s; largest player ${result.largest.playerId} with ${result.largest.transactions.toLocaleString("en")} transactions.`,
  );
} catch (error) {
  const message = (error as Error).message;
  console.error(
    `db:generate failed, nothing was changed: ${message}${/relation .* does not exist/.test(message) ? " (run npm run db:migrate first)" : ""}`,
  );
  process.exitCode = 1;
} finally {
  await target.close();
}
