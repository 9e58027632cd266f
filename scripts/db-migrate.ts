import pg from "pg";
import { applyMigrations } from "../platform/db/schema-engine.ts";
import { analyzeTables } from "../platform/db/table-statistics.ts";
import { requireDatabaseUrl } from "../platform/env/script-env.ts";

const url = requireDatabaseUrl("db:migrate");
const applied = await applyMigrations(url);
console.log(applied.length ? `Applied migrations: ${applied.join(", ")}` : "Database is up to date.");
// Statistics for the planner: every table after a migration (it may have changed what they hold), else the
// tables never analyzed (a fresh or restored database), so no statement is planned blind until autovacuum runs.
const client = new pg.Client({ connectionString: url });
await client.connect();
try {
  const analyzed = await analyzeTables(client, { all: applied.length > 0 });
  if (analyzed.length) console.log(`Analyzed ${analyzed.length} tables.`);
} finally {
  await client.end();
}
