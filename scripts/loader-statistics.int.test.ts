import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { exportNdjson } from "@/test/support/export-ndjson";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { dropPostgresDatabase, recreatePostgresDatabase } from "@/test/support/test-db";
import { generateDataset } from "@/tools/data/generate-dataset";
import { UPSERT_TRANSACTIONS_SQL } from "@/workers/ingest/apply-sql";

/*
 * The loaders leave planner statistics behind, on a fresh database whose tables autovacuum does not analyze (it is
 * turned off for them here, so it cannot help): db:migrate analyzes every table, db:import what it loaded, and
 * after db:seed the ingest's statement that reads the rows a batch replaces (`old` in UPSERT_TRANSACTIONS_SQL)
 * is planned as index lookups of `transactions`. PostgreSQL only: the ingest runs on it alone.
 */
const postgres = inject("databaseKind") === "postgres";
const prefix = process.env.TEST_DB_PREFIX ?? "par";

async function npmScript(script: string, url: string, args: string[] = []): Promise<string> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", script, ...args],
    { env: { ...process.env, DATABASE_URL: url, LOG_LEVEL: "silent" }, maxBuffer: 16 * 1024 * 1024 },
  );
  return stdout + stderr;
}

interface PlanNode {
  "Node Type": string;
  "Relation Name"?: string;
  Plans?: PlanNode[];
}

/** How the ingest's UPSERT_TRANSACTIONS_SQL reads `transactions` for a batch of 1,000 of its ids. */
async function scansOfTransactions(client: pg.Client): Promise<string[]> {
  const { rows: ids } = await client.query<{ id: string }>(
    "SELECT id FROM transactions ORDER BY id LIMIT 1000",
  );
  expect(ids).toHaveLength(1_000);
  const batch = ids.map(({ id }) => ({
    id,
    player_id: "P000001",
    event_type: "bet",
    amount: "1",
    version: 99,
  }));
  const { rows } = await client.query(`EXPLAIN (FORMAT JSON) ${UPSERT_TRANSACTIONS_SQL}`, [
    JSON.stringify(batch),
  ]);
  const scans: string[] = [];
  const walk = (node: PlanNode) => {
    if (node["Relation Name"] === "transactions" && node["Node Type"] !== "ModifyTable")
      scans.push(node["Node Type"]);
    for (const child of node.Plans ?? []) walk(child);
  };
  walk((rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0]?.Plan as PlanNode);
  return scans;
}

/** A fresh database migrated by `npm run db:migrate`, with autovacuum off for every table. */
async function freshMigrated(name: string) {
  const database = `${prefix}_${name}_${process.pid}`;
  const url = await recreatePostgresDatabase(database);
  await npmScript("scripts/db-migrate.ts", url);
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const { rows } = await client.query<{ name: string }>(
    "SELECT relname AS name FROM pg_stat_user_tables WHERE schemaname = 'public'",
  );
  for (const { name: table } of rows)
    await client.query(`ALTER TABLE "${table}" SET (autovacuum_enabled = off)`);
  return {
    url,
    client,
    stop: async () => {
      await client.end();
      await dropPostgresDatabase(database);
    },
  };
}

describe.runIf(postgres)("the loaders leave planner statistics behind", () => {
  let dir: string;
  let files: { players: string; transactions: string };

  beforeAll(async () => {
    // The import's input: a generated data set (20,000 transactions) in the API's shapes.
    dir = await mkdtemp(path.join(tmpdir(), "par-stats-"));
    files = {
      players: path.join(dir, "players.ndjson"),
      transactions: path.join(dir, "transactions.ndjson"),
    };
    const source = await freshTestDatabase("postgres", "stats_src");
    const client = new pg.Client({ connectionString: source.url });
    await client.connect();
    try {
      await generateDataset(client, { players: 200, transactions: 20_000, seed: 11, copy: true });
      await exportNdjson(client, files, { copy: true });
    } finally {
      await client.end();
      await source.stop();
    }
  });
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("db:migrate analyzes every table of a fresh database", async () => {
    const db = await freshMigrated("stats_migrate");
    try {
      const { rows } = await db.client.query<{ name: string }>(
        `SELECT relname AS name FROM pg_stat_user_tables
         WHERE schemaname = 'public' AND last_analyze IS NULL AND last_autoanalyze IS NULL ORDER BY relname`,
      );
      expect(rows.map((r) => r.name)).toEqual([]);
    } finally {
      await db.stop();
    }
  });

  it("after db:seed, the ingest reads the rows a batch replaces by index", async () => {
    const db = await freshMigrated("stats_seed");
    try {
      await npmScript("scripts/db-seed.ts", db.url);
      const scans = await scansOfTransactions(db.client);
      expect(scans.length).toBeGreaterThan(0);
      expect(scans.filter((s) => s === "Seq Scan")).toEqual([]);
    } finally {
      await db.stop();
    }
  });

  it("db:import leaves the statistics of what it loaded", async () => {
    const db = await freshMigrated("stats_import");
    try {
      const started = (await db.client.query<{ now: Date }>("SELECT clock_timestamp() AS now")).rows[0]?.now;
      const out = await npmScript("tools/data/db-import.ts", db.url, [
        "--players",
        files.players,
        "--transactions",
        files.transactions,
      ]);
      expect(out).toContain("20,000 inserted");
      // Analyzed after the import began (db:migrate analyzed the empty tables before it). Not n_mod_since_analyze:
      // the COPY's counts may reach the statistics up to a second after its commit, so after the ANALYZE.
      const { rows } = await db.client.query<{ name: string; rows: number; analyzed: boolean }>(
        `SELECT c.relname AS name, c.reltuples::int AS rows, coalesce(s.last_analyze >= $1, false) AS analyzed
         FROM pg_class c JOIN pg_stat_user_tables s ON s.relid = c.oid
         WHERE c.relname IN ('players', 'transactions') ORDER BY c.relname`,
        [started],
      );
      expect(rows).toEqual([
        { name: "players", rows: 200, analyzed: true },
        { name: "transactions", rows: 20_000, analyzed: true },
      ]);
    } finally {
      await db.stop();
    }
  });
});
