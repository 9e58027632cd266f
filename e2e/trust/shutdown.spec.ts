import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import {
  appBase,
  appsStoppedAfterAll,
  auditRowsOf,
  type HttpFailure,
  type HttpResult,
  httpGet,
  isFailure,
  postgresTestDatabase,
} from "./harness.ts";

/*
 * SIGTERM during load: requests already accepted finish, each with its audit record written before its answer,
 * and then the process exits.
 */
const DATABASE_URL = postgresTestDatabase();
const SESSION = `shutdown-${randomUUID()}`;
const startApp = appsStoppedAfterAll();

test("SIGTERM: in-flight requests finish with their audit records, then the process exits", async () => {
  const app = await startApp(appBase + 1, {
    DATABASE_URL,
    AUTH_MODE: "demo",
    RATE_LIMIT_MAX: "0",
    AUDIT_BATCH_SIZE: "5000",
    LOG_LEVEL: "debug", // "request started" lines tell which requests the server had begun handling
  });
  const url = app.url;
  const headers = { Authorization: "Bearer demo", "X-Session-ID": SESSION };
  const results: (HttpResult | HttpFailure)[] = [];
  const sent = new Map<HttpResult | HttpFailure, string>();
  let signalledAt = Number.POSITIVE_INFINITY;

  // Each worker keeps requesting (the whale's deepest pages take a while) until the server is gone.
  const worker = async (n: number) => {
    for (let i = 0; ; i++) {
      const offset = (n * 997 + i * 131) % 23_900;
      const requestId = `${SESSION}-${n}-${i}`;
      const result = await httpGet(`${url}/api/v1/players/P000007/transactions?limit=100&offset=${offset}`, {
        ...headers,
        "X-Request-ID": requestId,
      });
      sent.set(result, requestId);
      results.push(result);
      if (isFailure(result) && result.startedAt > signalledAt) return;
    }
  };
  const workers = Array.from({ length: 8 }, (_, n) => worker(n));

  await expect
    .poll(() => results.filter((r) => !isFailure(r)).length, { timeout: 60_000 })
    .toBeGreaterThan(20);
  signalledAt = Date.now();
  app.signal("SIGTERM");
  const code = await app.exited;
  await Promise.all(workers);

  // Next.js exits with 128 + SIGTERM after its graceful close; the launcher passes the code on.
  expect([0, 143]).toContain(code);
  expect(app.output()).toContain("audit queue drained");

  const answered = results.filter((r): r is HttpResult => !isFailure(r));
  const failed = results.filter(isFailure);
  const started = new Set(
    app
      .output()
      .split("\n")
      .filter((line) => line.includes('"request started"'))
      .map((line) => String(JSON.parse(line).clientRequestId))
      .filter((id) => id.startsWith(SESSION)), // not the launcher's health checks
  );
  // Every request the server had begun handling was answered, with a 200. Connections the server never
  // got to (refused once the listener closed, or reset while waiting in the accept queue) are the only
  // failures.
  expect([...new Set(answered.map((r) => r.status))]).toEqual([200]);
  for (const f of failed) {
    expect(["ECONNREFUSED", "ECONNRESET"]).toContain(f.error);
    expect(started.has(sent.get(f) ?? "")).toBe(false);
  }
  expect(started.size).toBe(answered.length);
  expect(answered.some((r) => r.startedAt + r.ms >= signalledAt)).toBe(true);

  // Every read served is in the audit trail.
  const audited = (await auditRowsOf(DATABASE_URL, SESSION)).length;
  expect(audited).toBe(answered.length);
  test.info().annotations.push({
    type: "figures",
    description: JSON.stringify({
      served: answered.length,
      audited,
      refused: failed.length,
    }),
  });
});
