import { spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, rmSync, statSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { childPid, TEST_SESSION_SECRET } from "../../test/support/app-process.ts";
import { deleteRedisKeys } from "../../test/support/redis-keys.ts";
import { TEST_REDIS_URL } from "../../test/support/test-redis.ts";
import { clusterDown, clusterStatus, clusterUp, socketDirOf } from "../../tools/cluster/cluster.ts";
import { readClusterSettings } from "../../tools/cluster/cluster-settings.ts";
import {
  type ClusterState,
  COMMAND_MARK,
  isOurProcess,
  readClusterState,
} from "../../tools/cluster/cluster-state.ts";
import {
  adminSocketPath,
  backendStats,
  ensureHaproxy,
  frontendRequests,
  waitForServers,
} from "../../tools/cluster/haproxy.ts";
import { appBase, postgresTestDatabase } from "./harness.ts";

/*
 * `npm run cluster:up` (tools/cluster/cluster.ts) on this run's ports and the PostgreSQL test database: three
 * instances of the production build behind HAProxy on the repository's config (deploy/haproxy/haproxy.cfg),
 * under a few concurrent readers:
 * - the instances listen only on their Unix sockets, which only the cluster's user (HAProxy's) reaches: no TCP
 *   port, from any local address, the proxy's included, and another local user is refused, so a forged
 *   X-Forwarded-For reaches no audit row; through HAProxy the row records the client HAProxy saw;
 * - a flood of Upgrade requests left open, more than every instance's maxconn together, holds no instance: HAProxy
 *   refuses each itself, and health and reads are answered meanwhile;
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
// The address the instances trust (TRUSTED_PROXIES), given to the connections on their Unix sockets; the test's
// own attempts at a TCP port come from 127.0.0.1 and from this address too.
const PROXY_SOURCE = "127.0.0.2";
const CLIENT_ADDRESS = "127.0.0.3";
const READERS = 4;
const PLAYERS = ["P000001", "P000002", "P000003", "P000007", "P000012", "P000042"];

// One per run's ports, made in beforeAll: Playwright also loads this file in its main process, where nothing runs.
const stateDir = path.join(tmpdir(), `par-cluster-${PROXY_PORT}`);
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
  // A run killed midway may have left its cluster here: stopped, and the directory made anew.
  if (readClusterState(stateDir)) await clusterDown(settings, 5_000);
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
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
  await deleteRedisKeys(TEST_REDIS_URL, REDIS_PREFIX);
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

test("instances listen only where HAProxy reaches them: a forged X-Forwarded-For lands in no audit row", async () => {
  const forged = "203.0.113.66";
  const spoofed = { "X-Forwarded-For": forged };
  // Through HAProxy from 127.0.0.3, claiming another address: the address HAProxy saw.
  const sent = `${SESSION}-via-proxy`;
  const via = await get(
    `http://127.0.0.1:${PROXY_PORT}/api/v1/players/P000007`,
    { ...readHeaders(sent), ...spoofed },
    CLIENT_ADDRESS,
  );
  expect(via.status).toBe(200);
  expect((await auditRows()).get(via.requestId ?? "")).toEqual({ sent, address: CLIENT_ADDRESS });

  // No TCP port: the ones the instances were told, on either loopback address, from either, the proxy's too.
  const direct: string[] = [];
  for (const port of APP_PORTS) {
    for (const host of ["127.0.0.1", PROXY_SOURCE]) {
      for (const from of ["127.0.0.1", PROXY_SOURCE]) {
        const res = await get(
          `http://${host}:${port}/api/v1/players/P000007`,
          { ...readHeaders(`${SESSION}-direct-${port}-${host}-${from}`), ...spoofed },
          from,
        );
        direct.push(`${from} -> ${host}:${port} ${res.error ?? res.status}`);
      }
    }
  }
  expect(direct.filter((d) => !d.endsWith(" ECONNREFUSED"))).toEqual([]);

  // The sockets: this user's alone, in a directory only this user enters.
  const socketDir = socketDirOf(stateDir);
  const uid = process.getuid?.() ?? -1;
  const modes = [socketDir, ...(state?.instances ?? []).map((i) => i.socket ?? "")].map((file) => {
    const st = statSync(file);
    return [st.isSocket() ? "socket" : st.isDirectory() ? "dir" : "other", st.mode & 0o777, st.uid === uid];
  });
  expect(modes).toEqual([["dir", 0o700, true], ...APP_PORTS.map(() => ["socket", 0o600, true])]);

  // Another local user: refused at the socket, its forged header never read. Only root can act as another user
  // (root itself passes every permission check); CI runs as root, so there it must run.
  if (uid !== 0) {
    if (process.env.CI === "true")
      throw new Error("CI must run this spec as root to act as another local user");
    test.info().annotations.push({ type: "skipped part", description: "another local user (not root here)" });
  } else {
    const socketPath = state?.instances[0]?.socket ?? "";
    const probe = spawnSync(
      process.execPath,
      [
        "-e",
        `require("node:http").get({ socketPath: process.argv[1], path: "/api/v1/players/P000007",
            headers: JSON.parse(process.argv[2]) }, (res) => { console.log(res.statusCode); process.exit(0); })
          .on("error", (e) => { console.log(e.code); process.exit(1); });`,
        socketPath,
        JSON.stringify({ Host: "localhost", ...readHeaders(`${SESSION}-other-user`), ...spoofed }),
      ],
      { uid: 65534, gid: 65534, encoding: "utf8", cwd: "/" },
    );
    expect(probe.stdout.trim()).toBe("EACCES");
  }
  // Whatever was tried, the forged address is in no audit row of this run.
  const addresses = [...(await auditRows()).values()].map((r) => r.address);
  expect(addresses).not.toContain(forged);
});

test("a flood of Upgrade requests left open, beyond every instance's maxconn: health and reads still answered", async () => {
  // More than the instances' slots together (3 × maxconn 64): held by instances, they would leave none.
  const FLOOD = 200;
  const before = await frontendRequests(socket);
  const flood = Array.from({ length: FLOOD }, (_, n) => {
    const conn = net.connect({ host: "127.0.0.1", port: PROXY_PORT });
    const answer = { text: "" };
    conn.setEncoding("utf8");
    conn.on("data", (chunk: string) => {
      answer.text += chunk;
    });
    conn.on("error", () => {});
    // Fire and forget: a valid WebSocket handshake, the connection left open. On a path no route matches,
    // Next.js leaves an upgrade's connection open without a word (for a WebSocket server of the app's own): that
    // is what held the instances' slots.
    conn.write(
      [
        `GET /ws/${n} HTTP/1.1`,
        `Host: 127.0.0.1:${PROXY_PORT}`,
        "Connection: Upgrade",
        "Upgrade: websocket",
        "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==",
        "Sec-WebSocket-Version: 13",
        "Authorization: Bearer demo",
        `X-Session-ID: ${SESSION}`,
        "",
        "",
      ].join("\r\n"),
    );
    return { conn, answer };
  });
  try {
    // HAProxy has received every one of them, whatever it made of them.
    await expect
      .poll(async () => (await frontendRequests(socket)) - before, { timeout: 60_000 })
      .toBeGreaterThanOrEqual(FLOOD);
    // HAProxy's answers have come back (asserted with the figures below, after the reads either way).
    const refused = () => flood.filter((f) => f.answer.text.startsWith("HTTP/1.1 400 ")).length;
    await expect
      .poll(refused, { timeout: 15_000 })
      .toBe(FLOOD)
      .catch(() => undefined);
    // With all of them still open: health and reads through HAProxy.
    const outcomes = [await get(`http://127.0.0.1:${PROXY_PORT}/api/health`, {})];
    for (const [n, player] of PLAYERS.entries()) {
      const sent = `${SESSION}-after-flood-${n}`;
      outcomes.push(await get(`http://127.0.0.1:${PROXY_PORT}/api/v1/players/${player}`, readHeaders(sent)));
    }
    const stats = await backendStats(socket);
    const figures = {
      flood: FLOOD,
      refused400: refused(),
      heldByInstances: stats.filter((s) => s.name !== "BACKEND").reduce((sum, s) => sum + s.current, 0),
      answers: outcomes.map((o) => o.error ?? o.status),
    };
    console.log(`haproxy upgrade-flood: ${JSON.stringify(figures)}`);
    test.info().annotations.push({ type: "figures", description: JSON.stringify(figures) });
    expect(figures).toEqual({
      flood: FLOOD,
      refused400: FLOOD,
      heldByInstances: 0,
      answers: outcomes.map(() => 200),
    });
  } finally {
    for (const f of flood) f.conn.destroy();
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
