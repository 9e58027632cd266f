/*
 * `npm run dev` / `npm start`: runs Next.js against DATABASE_URL when it is set; otherwise starts the
 * embedded PostgreSQL (PGlite, data in .data/pglite), applies migrations, seeds the demo data on first
 * start, and hands its address to Next.js. Ctrl-C / SIGTERM stop Next.js first, then the database.
 */
import { spawn } from "node:child_process";
import { createRequire } from "node:module";
import { fillGeneratedSecrets } from "../lib/auth/generated-secrets.ts";
import type { EmbeddedDatabase } from "../lib/db/embedded.ts";
import { parseEnv } from "../lib/env.ts";

const mode = process.argv[2];
if (mode !== "dev" && mode !== "start") {
  console.error("usage: tsx scripts/serve.ts dev|start [next options]");
  process.exit(2);
}

let embedded: EmbeddedDatabase | undefined;
const env = { ...process.env };

// Refuse early, before starting anything, on a configuration the server would refuse (e.g. DATABASE_URL
// without an explicit AUTH_MODE: demo authentication must never be silent against a real database).
try {
  parseEnv(env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

if (!env.DATABASE_URL) {
  const dataDir = env.EMBEDDED_DB_DIR;
  console.log(`Starting the embedded PostgreSQL (PGlite) in ${dataDir ?? ".data/pglite"} …`);
  // Loaded only here: with DATABASE_URL set, this launcher stays small (PGlite, the schema engine and the
  // demo data generator together hold over 100 MB).
  const [{ startEmbeddedDatabase }, { applyMigrations }, { isEmpty, seedDemoData }, { default: pg }] =
    await Promise.all([
      import("../lib/db/embedded.ts"),
      import("../lib/db/schema-engine.ts"),
      import("../prisma/seed.ts"),
      import("pg"),
    ]);
  embedded = await startEmbeddedDatabase(dataDir ? { dataDir } : {});
  const applied = await applyMigrations(embedded.url);
  if (applied.length) console.log(`Applied migrations: ${applied.join(", ")}`);
  const pool = new pg.Pool({ connectionString: embedded.url, max: 1 });
  if (await isEmpty(pool)) {
    console.log("Seeding demo data (first start) …");
    const counts = await seedDemoData(pool);
    console.log(`Seeded ${counts.players} players and ${counts.transactions} transactions.`);
  }
  await pool.end();
  env.DATABASE_URL = embedded.url;
  env.AUTH_MODE ??= "demo";
}

// Sign-in works with no configuration: missing secrets come from .data/auth-secrets.json (generated once).
const generated = await fillGeneratedSecrets(env);
if (generated.length) console.log(`Using generated ${generated.join(" and ")} from .data/auth-secrets.json.`);
// Without NEXTAUTH_URL, next-auth builds its URLs from the request's Host header (any port, any host name).
if (!env.NEXTAUTH_URL) env.AUTH_TRUST_HOST ??= "true";

const require = createRequire(import.meta.url);
const nextBin = require.resolve("next/dist/bin/next");
const child = spawn(process.execPath, [nextBin, mode, ...process.argv.slice(3)], { stdio: "inherit", env });

let stopping = false;
async function shutdown(code: number): Promise<void> {
  if (stopping) return;
  stopping = true;
  await embedded?.stop().catch(() => {});
  process.exit(code);
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.on(signal, () => {
    child.kill(signal);
  });
}
child.on("exit", (code, signal) => {
  void shutdown(code ?? (signal ? 0 : 1));
});
