/*
 * What the trust specs share: the PostgreSQL test database scripts/test.sh prepares, the ports of this run
 * (trustPorts: from E2E_POSTGRES_PORT + 8, so parallel runs do not collide) and production servers that a
 * spec starts for itself and that are stopped after its tests, whatever happened in them.
 */
import { test } from "@playwright/test";
import { type AppProcess, type StartOptions, startApp, trustPorts } from "../../tools/bench/app-process.ts";

export {
  type AppProcess,
  type HttpFailure,
  type HttpResult,
  httpGet,
  isFailure,
  startApp,
} from "../../tools/bench/app-process.ts";

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
