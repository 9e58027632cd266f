/*
 * The cluster's own database (when DATABASE_URL is not set): made on the local server at the first `cluster:up`,
 * migrated at every one (idempotent), and loaded with the demo data while it has no players. An operator's
 * DATABASE_URL is used as it is: migrating and loading it is theirs (`npm run db:migrate`, docs/configuration.md).
 */
import pg from "pg";
import { applyMigrations } from "../../platform/db/schema-engine.ts";
import { seedDemoData } from "../../prisma/seed.ts";
import type { ClusterSettings } from "./cluster-settings.ts";

export async function prepareClusterDatabase(
  settings: ClusterSettings,
  log: (line: string) => void,
): Promise<void> {
  if (!settings.ownDatabase) {
    await checkReachable(settings.databaseUrl);
    return;
  }
  const admin = new pg.Client({ connectionString: settings.adminUrl, connectionTimeoutMillis: 5_000 });
  await admin.connect();
  try {
    const { rowCount } = await admin.query("SELECT 1 FROM pg_database WHERE datname = $1", [
      settings.databaseName,
    ]);
    if (!rowCount) {
      log(`creating database ${settings.databaseName}`);
      // The name is checked by cluster-settings.ts (lower-case letters, digits, _).
      await admin.query(`CREATE DATABASE "${settings.databaseName}"`);
    }
  } finally {
    await admin.end();
  }
  const applied = await applyMigrations(settings.databaseUrl);
  if (applied.length) log(`applied migrations: ${applied.join(", ")}`);
  const pool = new pg.Pool({ connectionString: settings.databaseUrl, max: 1 });
  try {
    const { rows } = await pool.query<{ any: boolean }>("SELECT EXISTS (SELECT 1 FROM players) AS any");
    if (!rows[0]?.any) {
      log("loading the demo data (240 players, ~59,000 transactions)");
      await seedDemoData(pool);
    }
  } finally {
    await pool.end();
  }
}

async function checkReachable(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  await client.end();
}
