/*
 * Planner statistics after a load. Autovacuum analyzes a table only after enough of it changed and within its
 * naptime, so a loader that leaves none behind hands the planner a table it thinks empty (or the size it was):
 * the ingest's lookups of the rows a batch replaces were planned as sequential scans of `transactions` until
 * autoanalyze ran. The loaders (db:migrate, db:seed, db:generate, db:import) analyze what they loaded.
 */

/** The tables the loaders fill. */
export const READ_MODEL_TABLES = ["players", "transactions", "transaction_daily_stats"] as const;

interface Queryable {
  query(text: string): Promise<{ rows: unknown[] }>;
}

/** ANALYZE of the read model's tables (samples 30,000 rows each: about a second per 10 million). */
export async function analyzeReadModel(client: Queryable): Promise<void> {
  await client.query(`ANALYZE ${READ_MODEL_TABLES.join(", ")}`);
}

/**
 * ANALYZE of every table of the schema `public` that has never been analyzed (by hand or by autovacuum), e.g. a
 * fresh database's or a restored one's; with `all`, of every table. Returns the tables analyzed.
 */
export async function analyzeTables(client: Queryable, options: { all: boolean }): Promise<string[]> {
  const { rows } = await client.query(
    `SELECT relname AS name FROM pg_stat_user_tables
     WHERE schemaname = 'public' ${options.all ? "" : "AND last_analyze IS NULL AND last_autoanalyze IS NULL"}
     ORDER BY relname`,
  );
  const names = (rows as { name: string }[]).map((r) => r.name);
  if (names.length > 0)
    await client.query(`ANALYZE ${names.map((n) => `"${n.replaceAll('"', '""')}"`).join(", ")}`);
  return names;
}
