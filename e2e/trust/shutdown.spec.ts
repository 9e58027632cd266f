import { expect, test } from "@playwright/test";
import { appBase, auditedLoad, type HttpResult, isFailure } from "./harness.ts";

/*
 * SIGTERM during load: requests already accepted finish, each with its audit record written before its answer,
 * and then the process exits.
 */
const load = auditedLoad("shutdown");

test("SIGTERM: in-flight requests finish with their audit records, then the process exits", async () => {
  const app = await load.start(appBase + 1, {
    AUDIT_BATCH_SIZE: "5000",
    LOG_LEVEL: "debug", // "request started" lines tell which requests the server had begun handling
  });
  let signalledAt = Number.POSITIVE_INFINITY;
  // Each client keeps requesting (the whale's deepest pages take a while) until the server is gone.
  const { reads, done } = load.run(
    `${app.url}/api/v1/players/P000007/transactions?limit=100&offset=`,
    (n, i) => String((n * 997 + i * 131) % 23_900),
    (failure) => failure.startedAt > signalledAt,
  );

  await expect
    .poll(() => reads.filter((r) => !isFailure(r.result)).length, { timeout: 60_000 })
    .toBeGreaterThan(20);
  signalledAt = Date.now();
  app.signal("SIGTERM");
  const code = await app.exited;
  await done;

  // Next.js exits with 128 + SIGTERM after its graceful close; the launcher passes the code on.
  expect([0, 143]).toContain(code);
  expect(app.output()).toContain("audit queue drained");

  const answered = reads.flatMap(({ result }): HttpResult[] => (isFailure(result) ? [] : [result]));
  const failed = reads.flatMap(({ sent, result }) =>
    isFailure(result) ? [{ sent, error: result.error }] : [],
  );
  const started = new Set(
    app
      .output()
      .split("\n")
      .filter((line) => line.includes('"request started"'))
      .map((line) => String(JSON.parse(line).clientRequestId))
      .filter((id) => id.startsWith(load.session)), // not the launcher's health checks
  );
  // Every request the server had begun handling was answered, with a 200. Connections the server never
  // got to (refused once the listener closed, or reset while waiting in the accept queue) are the only
  // failures.
  expect([...new Set(answered.map((r) => r.status))]).toEqual([200]);
  for (const f of failed) {
    expect(["ECONNREFUSED", "ECONNRESET"]).toContain(f.error);
    expect(started.has(f.sent)).toBe(false);
  }
  expect(started.size).toBe(answered.length);
  expect(answered.some((r) => r.startedAt + r.ms >= signalledAt)).toBe(true);

  // Every read served is in the audit trail.
  const audited = (await load.auditRows()).length;
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
