/*
 * The data the e2e specs read, on the database of the server they run against: migrated, the demo data and the
 * test fixtures. scripts/test.sh prepares the databases fresh; playwright.config.ts runs this before starting each
 * app server too, so that a spec run alone (`npx playwright test e2e/api/typed-client.spec.ts`) finds its data
 * instead of a 404. Idempotent: on a prepared database it only checks.
 *
 *   node --import tsx test/support/e2e-data.ts embedded <data dir>   # before the embedded server starts on it
 *   DATABASE_URL=… node --import tsx test/support/e2e-data.ts postgres
 */
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startEmbeddedDatabase } from "../../platform/db/embedded.ts";
import { applyMigrations } from "../../platform/db/schema-engine.ts";
import { isEmpty, seedDemoData } from "../../prisma/seed.ts";
import { FIXTURE_PLAYER_ID, loadTestFixtures } from "./test-fixtures.ts";

/** Migrations, the demo data when there is none, the test fixtures when they are missing. */
export async function ensureE2eData(url: string): Promise<{ seeded: boolean; fixturesLoaded: boolean }> {
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    const seeded = await isEmpty(pool);
    if (seeded) await seedDemoData(pool);
    const { rowCount } = await pool.query("SELECT 1 FROM players WHERE id = $1", [FIXTURE_PLAYER_ID]);
    const fixturesLoaded = !rowCount;
    if (fixturesLoaded) await loadTestFixtures(pool);
    return { seeded, fixturesLoaded };
  } finally {
    await pool.end();
  }
}

/** The same on an embedded data directory (created when missing), before a server holds it. */
export async function ensureEmbeddedE2eData(dataDir: string) {
  const embedded = await startEmbeddedDatabase({ dataDir });
  try {
    return await ensureE2eData(embedded.url);
  } finally {
    await embedded.stop();
  }
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const [kind, dataDir] = process.argv.slice(2);
  const url = process.env.DATABASE_URL;
  let result: Awaited<ReturnType<typeof ensureE2eData>>;
  if (kind === "embedded" && dataDir) result = await ensureEmbeddedE2eData(dataDir);
  else if (kind === "postgres" && url) result = await ensureE2eData(url);
  else throw new Error("usage: e2e-data.ts embedded <data dir> | DATABASE_URL=… e2e-data.ts postgres");
  if (result.seeded || result.fixturesLoaded)
    console.error(`e2e data for ${kind}: ${JSON.stringify(result)}`);
}
