import pg from "pg";
import { analyzeReadModel } from "../platform/db/table-statistics.ts";
import { requireDatabaseUrl } from "../platform/env/script-env.ts";
import { seedDemoData } from "../prisma/seed.ts";

const pool = new pg.Pool({ connectionString: requireDatabaseUrl("db:seed"), max: 1 });
const started = performance.now();
const counts = await seedDemoData(pool);
await analyzeReadModel(pool); // the daily stats too: the seed's triggers filled them
await pool.end();
console.log(
  `Seeded ${counts.players} players and ${counts.transactions} transactions in ${((performance.now() - started) / 1000).toFixed(1)} s.`,
);
