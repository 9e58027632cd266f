/*
 * npm run db:import -- [--players FILE] [--transactions FILE] [--strict]
 * Loads NDJSON files in the API's shapes into DATABASE_URL (or the embedded database). See tools/data/import-ndjson.ts.
 */
import { analyzeReadModel } from "@/platform/db/table-statistics";
import { commandArgs } from "../command-args.ts";
import { openDatabaseTarget } from "./database-target.ts";
import { type FileSummary, importNdjson } from "./import-ndjson.ts";
import { createProgress } from "./progress.ts";

const HELP = `usage: npm run db:import -- [--players FILE] [--transactions FILE] [--strict]

Loads newline-delimited JSON:
  --players FILE       one player profile per line, exactly as GET /api/players/{id} returns it
  --transactions FILE  one transaction per line, as the API lists them, plus "player_id"
Every line is validated with the API's own schemas (money as exact JSON numbers that fit numeric(20,8),
UTC ISO 8601 instants). A transaction's player must be in the database or in the players file.
A bad line is reported as "<file>: line N: <field>: <reason>".

By default bad lines are skipped and counted and the good ones are loaded; with --strict nothing is loaded
if any line is bad. Ids already in the database are left untouched, so importing a file again changes
nothing. Balances and KPIs (balances.*, kpi.*, ftd_date) are validated but not taken from the file: after
the import they are derived from the transactions in the database for every player the import touched.
Everything happens in one database transaction. A large import (at least 100,000 transactions and more
than half as many as the table holds, e.g. an initial load) drops the indexes and keys of transactions
and rebuilds them after, which locks the table until the import commits. Lines are validated by worker
threads (one per core, up to 4) when the files are larger than 16 MB.

Exit status: 0 when the import committed (bad lines, if any, were skipped); 1 with --strict and a bad
line, or when every line was bad; 2 for a usage error.
Target: DATABASE_URL; without it, the embedded database in EMBEDDED_DB_DIR or .data/pglite (the app must
not be running at the same time).`;

const values = commandArgs("db:import", HELP, {
  players: { type: "string" },
  transactions: { type: "string" },
  strict: { type: "boolean" },
});
if (!values.players && !values.transactions) {
  console.error(`db:import: give --players FILE and/or --transactions FILE\n\n${HELP}`);
  process.exit(2);
}

const target = await openDatabaseTarget();
console.log(`db:import into ${target.describe}${values.strict ? " (strict)" : ""}`);
const started = performance.now();
const line = (name: string, s: FileSummary) =>
  `  ${name}: ${s.lines.toLocaleString("en")} lines, ${s.inserted.toLocaleString("en")} inserted, ${s.existing.toLocaleString("en")} already present, ${s.bad.toLocaleString("en")} bad`;
try {
  const summary = await importNdjson(target.client, {
    ...(values.players ? { playersFile: values.players } : {}),
    ...(values.transactions ? { transactionsFile: values.transactions } : {}),
    strict: values.strict ?? false,
    copy: !target.embedded, // pglite-socket cannot COPY FROM STDIN
    progress: createProgress(),
    onBadLine: (message) => console.error(message),
  });
  // Statistics for what was loaded: otherwise the planner sees the tables as they were until autovacuum runs.
  if (summary.committed) await analyzeReadModel(target.client);
  const seconds = (performance.now() - started) / 1000;
  const bad = summary.players.bad + summary.transactions.bad;
  const good = summary.players.lines + summary.transactions.lines - bad;
  console.log(
    summary.committed
      ? `db:import: done in ${seconds.toFixed(1)} s; balances and KPIs derived for ${summary.refreshedPlayers.toLocaleString("en")} players.`
      : `db:import: nothing loaded: ${bad.toLocaleString("en")} bad lines and --strict.`,
  );
  if (summary.rebuiltIndexes)
    console.log(
      "  large import: indexes and keys of transactions were rebuilt (the table was locked meanwhile)",
    );
  if (values.players) console.log(line("players", summary.players));
  if (values.transactions) console.log(line("transactions", summary.transactions));
  if (summary.transactions.inserted && seconds > 0)
    console.log(
      `  ${Math.round(summary.transactions.inserted / seconds).toLocaleString("en")} transactions/s overall`,
    );
  if (!summary.committed || (bad > 0 && good === 0)) process.exitCode = 1;
} catch (error) {
  console.error(`db:import failed, nothing was changed: ${(error as Error).message}`);
  process.exitCode = 1;
} finally {
  await target.close();
}
