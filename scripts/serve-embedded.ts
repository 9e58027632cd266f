/*
 * The embedded default database for `npm run dev` / `npm start` without DATABASE_URL (scripts/serve.mjs runs it
 * as a child): starts PGlite (data in EMBEDDED_DB_DIR or .data/pglite), applies migrations, seeds the demo data
 * on first start, then prints `EMBEDDED_DATABASE_URL=<url>` and serves until SIGTERM or until its stdin closes
 * (the launcher is gone).
 */
import pg from "pg";
import { startEmbeddedDatabase } from "../platform/db/embedded.ts";
import { applyMigrations } from "../platform/db/schema-engine.ts";
import { parseEnv } from "../platform/env/env.ts";
import { isEmpty, seedDemoData } from "../prisma/seed.ts";

// The environment serve-prepare.ts has already validated (the launcher runs it first).
const dataDir = parseEnv(process.env).EMBEDDED_DB_DIR;
console.error(`Starting the embedded PostgreSQL (PGlite) in ${dataDir ?? ".data/pglite"} …`);
const embedded = await startEmbeddedDatabase(dataDir ? { dataDir } : {});
const applied = await applyMigrations(embedded.url);
if (applied.length) console.error(`Applied migrations: ${applied.join(", ")}`);
const pool = new pg.Pool({ connectionString: embedded.url, max: 1 });
if (await isEmpty(pool)) {
  console.error("Seeding demo data (first start) …");
  const counts = await seedDemoData(pool);
  console.error(`Seeded ${counts.players} players and ${counts.transactions} transactions.`);
}
await pool.end();

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await embedded.stop().catch(() => {});
  process.exit(0);
}
// Ctrl-C reaches the whole process group; the database must outlive Next.js's shutdown (it still writes the
// audit records it holds), so the launcher stops it with SIGTERM once Next.js has exited.
process.on("SIGINT", () => {});
process.on("SIGTERM", () => void stop());
process.stdin.on("close", () => void stop());
process.stdin.resume();
process.stdout.write(`EMBEDDED_DATABASE_URL=${embedded.url}\n`);
