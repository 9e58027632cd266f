/*
 * What the trust specs share: the PostgreSQL test database scripts/test.sh prepares, the ports of this run
 * (trustPorts: from E2E_POSTGRES_PORT + 8, so parallel runs do not collide) and production servers that a
 * spec starts for itself and that are stopped after its tests, whatever happened in them.
 */
import { randomUUID } from "node:crypto";
import { test } from "@playwright/test";
import pg from "pg";
import {
  type AppProcess,
  type HttpFailure,
  type HttpResult,
  httpGet,
  isFailure,
  type StartOptions,
  startApp,
  trustPorts,
} from "../../test/support/app-process.ts";

export {
  type AppProcess,
  type HttpFailure,
  type HttpResult,
  httpGet,
  isFailure,
  startApp,
} from "../../test/support/app-process.ts";

export const { appBase, faultPostgres } = trustPorts();

/** The PostgreSQL test database's URL; the calling spec's tests are skipped without it. */
export function postgresTestDatabase(): string {
  const url = process.env.E2E_POSTGRES_URL;
  test.skip(!url, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");
  return url ?? "";
}

/** Call at the top of a spec: the returned `start` launches a server that is stopped after the spec's tests. */
export function appsStoppedAfterAll(): (
  port: number,
  env: Record<string, string>,
  options?: StartOptions,
) => Promise<AppProcess> {
  const apps: AppProcess[] = [];
  test.afterAll(async () => {
    await Promise.all(apps.map((app) => app.stop()));
  });
  return async (port, env, options) => {
    const app = await startApp(port, env, options);
    apps.push(app);
    return app;
  };
}

/** One audit row, as the trust specs check it: the server's request id and the client's beside it. */
export interface AuditRow {
  request_id: string;
  client_request_id: string | null;
}

/** The audit rows recorded for one X-Session-ID, read through `db`: a database URL or an open pool. */
export async function auditRowsOf(db: string | pg.Pool, sessionId: string): Promise<AuditRow[]> {
  const sql = "SELECT request_id, client_request_id FROM audit_events WHERE session_id = $1";
  if (typeof db !== "string") return (await db.query<AuditRow>(sql, [sessionId])).rows;
  const client = new pg.Client({ connectionString: db });
  await client.connect();
  try {
    return (await client.query<AuditRow>(sql, [sessionId])).rows;
  } finally {
    await client.end();
  }
}

/** One read of a load: the X-Request-ID it was sent with and what came back. */
export interface SentRead {
  sent: string;
  result: HttpResult | HttpFailure;
}

/**
 * For the specs that load one server and then end it (crash, shutdown): a demo-mode server on the PostgreSQL
 * test database without a request quota, eight clients reading from it under this spec's own audited session,
 * and that session's audit rows.
 */
export function auditedLoad(name: string) {
  const databaseUrl = postgresTestDatabase();
  const session = `${name}-${randomUUID()}`;
  const start = appsStoppedAfterAll();
  return {
    session,
    start: (port: number, env: Record<string, string> = {}) =>
      start(port, {
        DATABASE_URL: databaseUrl,
        AUTH_MODE: "demo",
        RATE_LIMIT_MAX: "0",
        LOG_LEVEL: "warn",
        ...env,
      }),
    /** Each client reads `pathOf(client, i)` one after another until a read fails and `ended` says why. */
    run(baseUrl: string, pathOf: (client: number, i: number) => string, ended: (f: HttpFailure) => boolean) {
      const reads: SentRead[] = [];
      const client = async (n: number) => {
        for (let i = 0; i < 100_000; i++) {
          const sent = `${session}-${n}-${i}`;
          const headers = { Authorization: "Bearer demo", "X-Session-ID": session, "X-Request-ID": sent };
          const result = await httpGet(`${baseUrl}${pathOf(n, i)}`, headers);
          reads.push({ sent, result });
          if (isFailure(result) && ended(result)) return;
        }
      };
      return { reads, done: Promise.all(Array.from({ length: 8 }, (_, n) => client(n))) };
    },
    auditRows: () => auditRowsOf(databaseUrl, session),
  };
}
