import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Redis } from "ioredis";
import pg from "pg";
import { TEST_REDIS_URL } from "../../test/support/test-redis.ts";
import { childPid, TEST_SESSION_SECRET } from "../../tools/bench/app-process.ts";
import { clusterDown, clusterStatus, clusterUp } from "../../tools/cluster/cluster.ts";
import { readClusterSettings } from "../../tools/cluster/cluster-settings.ts";
import {
  type ClusterState,
  COMMAND_MARK,
  isOurProcess,
  readClusterState,
} from "../../tools/cluster/cluster-state.ts";
import { adminSocketPath, backendStats, ensureHaproxy, waitForServers } from "../../tools/cluster/haproxy.ts";
import { appBase, postgresTestDatabase } from "./harness.ts";

/*
 * `npm run cluster:up` (tools/cluster/cluster.ts) on this run's ports and the PostgreSQL test database: three
 * instances of the production build behind HAProxy on the repository's config (deploy/haproxy/haproxy.cfg),
 * under a few concurrent readers:
 * - the audit row records the client HAProxy saw, whatever the client wrote in X-Forwarded-For; a client reaching
 *   an instance directly is recorded by its socket address (TRUSTED_PROXIES names only HAProxy's);
 * - SIGTERM of one instance: no request fails, every answered read is audited;
 * - SIGKILL of one instance: no client request fails (HAProxy sends the reads cut off to the other instance again)
 *   and every answered read is audited;
 * - cluster:status and cluster:down see and stop what cluster:up started.
 * Answers are matched to audit rows by the server's X-Request-ID, as crash.spec.ts does.
 */
const DATABASE_URL = postgresTestDatabase();
const SESSION = `cluster-${randomUUID()}`;
const REDIS_PREFIX = `${process.env.TEST_DB_PREFIX ?? "par"}:e2e-cluster:${randomUUID()}:`;
// The cluster's ports: after the other trust specs' (appBase + 0 … + 13), E2E_POSTGRES_PORT + 30 … + 33.
const PROXY_PORT = appBase + 22;
// Three instances: one is stopped by SIGTERM, another killed, and one still serves at the end.
const APP_PORTS = [appBase + 23, appBase + 24, appBase + 25];
// HAProxy connects to the instances from this loopback address, the only one they trust; the test's own direct
// requests come from 127.0.0.1 (or from this address, to show that it is the address that is trusted).
const PROXY_SOURCE = "127.0.0.2";
const CLIENT_ADDRESS = "127.0.0.3";
const READERS = 4;
const PLAYERS = ["P000001", "P000002", "P000003", "P000007", "P000012", "P000042"];

const stateDir = mkdtempSync(path.join(tmpdir(), "par-cluster-"));
const socket = adminSocketPath(stateDir);
/** The environment `npm run cluster:up` is given here: this run's ports, database, Redis keys and state dir. */
const clusterEnv: Record<string, string> = {
  DATABASE_URL,
  AUTH_MODE: "demo",
  // The test database is reached as postgres (see harness.ts), and its session secret is the tests' own.
  DB_ALLOW_PRIVILEGED_ROLE: "on",
  NEXTAUTH_SECRET: TEST_SESSION_SECRET,
  CLUSTER_PORT: String(PROXY_PORT),
  CLUSTER_INSTANCES: String(APP_PORTS.length),
  CLUSTER_APP_PORT: String(APP_PORTS[0]),
  CLUSTER_PROXY_SOURCE: PROXY_SOURCE,
  CLUSTER_STATE_DIR: stateDir,
  REDIS_URL: TEST_REDIS_URL,
  REDIS_KEY_PREFIX: REDIS_PREFIX,
  // Shared through Redis, and high enough that the readers are never answered 429.
  RATE_LIMIT_MAX: "1000000000",
  LOG_LEVEL: "warn",
};
let state: ClusterState | null = null;

const settings = readClusterSettings(clusterEnv);

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  const binary = ensureHaproxy((line) => console.warn(line));
  if (!binary && process.env.CI === "true")
    throw new Error("haproxy is required under CI (.ci/run installs it)");
  test.skip(
    !binary,
    "haproxy is not installed and cannot be installed here (apt-get install -y haproxy, as root)",
  );
  // What `npm run cluster:up` runs (tools/cluster/cluster.ts), in this process: the Playwright worker has tsx's
  // loader already, a child would spend seconds loading it on a busy machine.
  const status = await clusterUp(settings, { ...process.env, ...clusterEnv });
  state = readClusterState(stateDir);
  // Every instance healthy on its own and UP in HAProxy's checks.
  expect(status).toMatchObject({
    running: true,
    haproxy: { running: true, port: PROXY_PORT, proxySource: PROXY_SOURCE },
    replica: { configured: false },
  });
  expect(
    (status.instances ?? []).map((i) => [
      i.port,
      i.running,
      i.haproxy,
      "status" in i.health && i.health.status,
    ]),
  ).toEqual(APP_PORTS.map((port) => [port, true, "UP", 200]));
});

test.afterAll(async () => {
  // Whatever happened in the tests: cluster:down stops what cluster:up started.
  if (readClusterState(stateDir)) await clusterDown(settings);
  rmSync(stateDir, { recursive: true, force: true });
  const redis = new Redis(TEST_REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  if (
    await redis.connect().then(
      () => true,
      () => false,
    )
  ) {
    const keys = await redis.keys(`${REDIS_PREFIX}*`);
    if (keys.length) await redis.del(...keys);
  }
  redis.disconnect();
});

/** The pid cluster:up recorded for an instance (its launcher, scripts/serve.mjs). */
function launcherPid(name: string): number {
  const pid = state?.instances.find((i) => i.name === name)?.pid;
  if (!pid) throw new Error(`no pid for ${name}`);
  return pid;
}

async function exitOf(pid: number): Promise<void> {
  await expect.poll(() => isOurProcess(pid, COMMAND_MARK.instance), { timeout: 60_000 }).toBe(false);
}

interface Outcome {
  sent: string;
  status: number | null;
  error: string | null;
  requestId: string | null;
}

/** GET over a fresh connection, from `localAddress`; never rejects. */
function get(
  url: string,
  headers: Record<string, string>,
  localAddress?: string,
): Promise<Omit<Outcome, "sent">> {
  return new Promise((resolve) => {
    const req = http.get(
      url,
      { headers: { Connection: "close", ...headers }, agent: false, localAddress },
      (res) => {
        res.resume();
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            error: null,
            requestId: String(res.headers["x-request-id"] ?? ""),
          }),
        );
        res.on("error", (e: NodeJS.ErrnoException) =>
          resolve({ status: null, error: e.code ?? e.message, requestId: null }),
        );
      },
    );
    req.setTimeout(30_000, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (e: NodeJS.ErrnoException) =>
      resolve({ status: null, error: e.code ?? e.message, requestId: null }),
    );
  });
}

const readHeaders = (sent: string) => ({
  Authorization: "Bearer demo",
  "X-Session-ID": SESSION,
  "X-Request-ID": sent,
});

/** Audit rows of this run by the server's request id: [client request id, client address]. */
async function auditRows(): Promise<Map<string, { sent: string; address: string | null }>> {
  const db = new pg.Client({ connectionString: DATABASE_URL });
  await db.connect();
  try {
    const { rows } = await db.query<{
      request_id: string;
      client_request_id: string;
      client_address: string | null;
    }>("SELECT request_id, client_request_id, client_address FROM audit_events WHERE session_id = $1", [
      SESSION,
    ]);
    return new Map(rows.map((r) => [r.request_id, { sent: r.client_request_id, address: r.client_address }]));
  } finally {
    await db.end();
  }
}

/**
 * Readers through HAProxy until `stop()`: each keeps one read in flight (profiles and transaction pages in turn).
 */
function readers(label: string) {
  const outcomes: Outcome[] = [];
  let stopped = false;
  const reader = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const sent = `${SESSION}-${label}-${n}-${i}`;
      const player = PLAYERS[(n + i) % PLAYERS.length];
      const page = i % 3 === 2 ? `/transactions?limit=20&offset=${(i * 37) % 400}` : "";
      const outcome = await get(
        `http://127.0.0.1:${PROXY_PORT}/api/v1/players/${player}${page}`,
        readHeaders(sent),
      );
      outcomes.push({ sent, ...outcome });
    }
  };
  const running = Array.from({ length: READERS }, (_, n) => reader(n));
  return {
    outcomes,
    answered: () => outcomes.filter((o) => o.status === 200).length,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

/** Requests HAProxy has given each instance so far. */
async function servedBy(): Promise<Record<string, number>> {
  const stats = await backendStats(socket);
  return Object.fromEntries(stats.filter((s) => s.name !== "BACKEND").map((s) => [s.name, s.total]));
}

/** HAProxy's counters, to report what one test's load made it do. */
async function counters(): Promise<Record<string, number>> {
  const stats = await backendStats(socket);
  const backend = stats.find((s) => s.name === "BACKEND");
  return {
    ...Object.fromEntries(
      stats.filter((s) => s.name !== "BACKEND").map((s) => [`served_${s.name}`, s.total]),
    ),
    retries: backend?.retries ?? 0,
    redispatches: backend?.redispatches ?? 0,
  };
}

/** The checks both failure tests make, and their figures (HAProxy's counters during the load) as an annotation. */
async function expectNoFailureAndEveryReadAudited(
  label: string,
  outcomes: Outcome[],
  before: Record<string, number>,
) {
  const failed = outcomes.filter((o) => o.status !== 200);
  const answered = outcomes.filter((o) => o.status === 200);
  const rows = await auditRows();
  const missing = answered.filter((o) => rows.get(o.requestId ?? "")?.sent !== o.sent);
  const after = await counters();
  const haproxy = Object.fromEntries(Object.entries(after).map(([k, v]) => [k, v - (before[k] ?? 0)]));
  const figures = JSON.stringify({
    test: label,
    requests: outcomes.length,
    answered200: answered.length,
    failed: failed.length,
    missingAuditRows: missing.length,
    haproxy,
  });
  // Printed too (the list reporter shows it): a run's counts, for the closing note and the doc, from CI's log.
  console.log(`haproxy ${label}: ${figures}`);
  test.info().annotations.push({
    type: "figures",
    description: figures,
  });
  expect(failed.map((o) => o.error ?? o.status)).toEqual([]);
  expect(missing.map((o) => o.sent)).toEqual([]);
}

test("the audit row records the client HAProxy saw; directly, the socket's address", async () => {
  const spoofed = { "X-Forwarded-For": "203.0.113.66" };
  const cases = [
    // Through HAProxy from 127.0.0.3, claiming another address: the address HAProxy saw.
    {
      sent: `${SESSION}-via-proxy`,
      url: `http://127.0.0.1:${PROXY_PORT}`,
      from: CLIENT_ADDRESS,
      expected: CLIENT_ADDRESS,
    },
    // Straight to an instance, claiming the same: the socket's address, as nothing trusted speaks for it.
    {
      sent: `${SESSION}-direct`,
      url: `http://127.0.0.1:${APP_PORTS[0]}`,
      from: "127.0.0.1",
      expected: "127.0.0.1",
    },
    // From the proxy's address, the header is believed: it is the address that is trusted, not the path.
    {
      sent: `${SESSION}-as-proxy`,
      url: `http://127.0.0.1:${APP_PORTS[1]}`,
      from: PROXY_SOURCE,
      expected: "203.0.113.66",
    },
  ];
  for (const c of cases) {
    const res = await get(`${c.url}/api/v1/players/P000007`, { ...readHeaders(c.sent), ...spoofed }, c.from);
    expect(res.status, c.sent).toBe(200);
    const rows = await auditRows();
    expect(rows.get(res.requestId ?? ""), c.sent).toEqual({ sent: c.sent, address: c.expected });
  }
});

test("SIGTERM of one instance under load through HAProxy: no request fails, every answered read is audited", async () => {
  const before = await counters();
  const load = readers("term");
  // Every instance is serving before the signal.
  await expect
    .poll(async () => Math.min(...Object.values(await servedBy())), { timeout: 60_000 })
    .toBeGreaterThan(20);
  // What an orchestrator does to stop an instance: SIGTERM to it (the launcher passes it to Next.js).
  const pid = launcherPid("app1");
  process.kill(pid, "SIGTERM");
  await exitOf(pid);
  // The load goes on until HAProxy has marked the instance down, and a little longer.
  await waitForServers(socket, ["app1"], "DOWN", 30_000);
  const after = load.answered();
  await expect.poll(() => load.answered(), { timeout: 30_000 }).toBeGreaterThan(after + 40);
  await load.stop();
  await expectNoFailureAndEveryReadAudited("sigterm", load.outcomes, before);
});

test("SIGKILL of one instance under load through HAProxy: no client request fails, every answered read is audited", async () => {
  const before = await servedBy();
  const beforeCounters = await counters();
  const load = readers("kill");
  await expect
    .poll(
      async () => {
        const now = await servedBy();
        return Math.min(...["app2", "app3"].map((k) => (now[k] ?? 0) - (before[k] ?? 0)));
      },
      { timeout: 60_000 },
    )
    .toBeGreaterThan(20);
  const pid = launcherPid("app2");
  const serverPid = childPid(pid);
  expect(serverPid).not.toBeNull();
  process.kill(serverPid ?? 0, "SIGKILL");
  await exitOf(pid);
  await waitForServers(socket, ["app2"], "DOWN", 30_000);
  const after = load.answered();
  await expect.poll(() => load.answered(), { timeout: 30_000 }).toBeGreaterThan(after + 40);
  await load.stop();
  await expectNoFailureAndEveryReadAudited("sigkill", load.outcomes, beforeCounters);
});

test("cluster:status reports what runs, cluster:down stops everything cluster:up started", async () => {
  const report = await clusterStatus(settings);
  expect((report.instances ?? []).map((i) => [i.name, i.running, i.haproxy])).toEqual([
    ["app1", false, "DOWN"],
    ["app2", false, "DOWN"],
    ["app3", true, "UP"],
  ]);
  expect(report.haproxy?.running).toBe(true);
  await clusterDown(settings);
  expect(isOurProcess(state?.haproxy.pid ?? 0, COMMAND_MARK.haproxy)).toBe(false);
  expect(isOurProcess(launcherPid("app3"), COMMAND_MARK.instance)).toBe(false);
  expect(readClusterState(stateDir)).toBeNull();
});
