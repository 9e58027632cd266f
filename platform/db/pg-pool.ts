import pg from "pg";

/**
 * A plain pg pool for processes outside the web server that write the read model (npm run ingest): a few
 * connections, every statement under statement_timeout, and a lost idle connection logged instead of crashing
 * the process (a restarted server is reconnected to on the next query).
 */
export function createPgPool(
  connectionString: string,
  options: {
    max?: number;
    statementTimeoutMs?: number;
    onError?: (error: Error) => void;
    /** Names the connections in pg_stat_activity (the bench finds the consumer's backends by it). */
    applicationName?: string;
  } = {},
): pg.Pool {
  const pool = new pg.Pool({
    connectionString,
    max: options.max ?? 4,
    statement_timeout: options.statementTimeoutMs ?? 30_000,
    connectionTimeoutMillis: 5_000,
    keepAlive: true,
    ...(options.applicationName ? { application_name: options.applicationName } : {}),
  });
  pool.on("error", (error) => options.onError?.(error));
  return pool;
}
