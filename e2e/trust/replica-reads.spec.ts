import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import pg from "pg";
import { clusterStatus } from "../../tools/cluster/cluster.ts";
import { prepareClusterDatabase } from "../../tools/cluster/cluster-database.ts";
import { readClusterSettings } from "../../tools/cluster/cluster-settings.ts";
import {
  CTL,
  findCluster,
  hasPgCreateCluster,
  replicaDown,
  replicaUp,
  runPgTool,
} from "../../tools/cluster/replica.ts";
import { type ReplicaSettings, standbyUrlFor } from "../../tools/cluster/replica-settings.ts";
import {
  appBase,
  appsStoppedAfterAll,
  type HttpFailure,
  type HttpResult,
  httpGet,
  isFailure,
} from "./harness.ts";

/*
 * Reads from a PostgreSQL hot standby (platform/db/read-router.ts), with real servers: a primary and a streaming standby
 * made by `npm run replica:up`'s code (pg_createcluster + pg_basebackup, tools/cluster/replica.ts) on ports of this
 * run, the demo data on the primary, and a production server with DATABASE_REPLICA_URL.
 * - the standby stopped (pg_ctlcluster stop, immediate: a crash) under a load of reads: no read fails, and reads
 *   are back on the standby soon after it returns (the time is printed; the bound asserted is generous);
 * - replay paused beyond REPLICA_MAX_LAG_MS while the primary takes writes: reads move to the primary (a row
 *   changed on the primary is read back at once);
 * - /api/health and cluster:status say which is used.
 * Skipped with a warning without Debian's pg_createcluster, except under CI=true, where that fails the run.
 */
const E2E_PG = Number(process.env.E2E_POSTGRES_PORT ?? 3102);
const PRIMARY_PORT = Number(process.env.E2E_REPLICA_PG_PORT ?? E2E_PG + 40);
const STANDBY_PORT = PRIMARY_PORT + 1;
// After haproxy-cluster.spec.ts's ports (appBase + 22 … + 25).
const APP_PORT = appBase + 27;
const PREFIX = (process.env.TEST_DB_PREFIX ?? "par").toLowerCase().replace(/[^a-z0-9_]/g, "_");
const PRIMARY_CLUSTER = `${PREFIX}_e2e_primary`;
const MAX_LAG_MS = 1_000;
const SESSION = `replica-${randomUUID()}`;
const PLAYERS = ["P000001", "P000002", "P000003", "P000007", "P000012", "P000042"];
const ADMIN_URL = `postgresql://postgres@127.0.0.1:${PRIMARY_PORT}/postgres`;
const stateDir = mkdtempSync(path.join(tmpdir(), "par-replica-"));
const clusterSettings = readClusterSettings({
  CLUSTER_POSTGRES_ADMIN_URL: ADMIN_URL,
  CLUSTER_DATABASE: "par_replica_e2e",
  CLUSTER_STATE_DIR: stateDir,
});
const DATABASE_URL = clusterSettings.databaseUrl;
const replica: ReplicaSettings = {
  primaryUrl: ADMIN_URL,
  port: STANDBY_PORT,
  cluster: `${PREFIX}_e2e_standby`,
  slot: `${PREFIX}_e2e_standby`,
  standbyUrl: standbyUrlFor(DATABASE_URL, STANDBY_PORT),
};
let version = "15";
let appUrl = "";

test.describe.configure({ mode: "serial" });
const start = appsStoppedAfterAll();

function dropPrimary(): void {
  const existing = findCluster(PRIMARY_CLUSTER);
  if (existing) runPgTool("pg_dropcluster", [existing.version, existing.name, "--stop"]);
}

test.beforeAll(async () => {
  test.setTimeout(420_000);
  // pg_createcluster makes clusters as root (or as postgres): postgresql-common's clusters are the system's.
  const available = hasPgCreateCluster() && process.getuid?.() === 0;
  const why = "needs Debian's pg_createcluster (postgresql-common) and root to make a primary and a standby";
  if (!available && process.env.CI === "true") throw new Error(`replica-reads.spec.ts ${why} under CI`);
  if (!available) console.warn(`replica-reads.spec.ts: SKIPPED, ${why}`);
  test.skip(!available, why);
  // Leftovers of an interrupted run, then a primary of this run's own (trust, like the machine's).
  await replicaDown(replica, () => undefined).catch(() => undefined);
  dropPrimary();
  version =
    execFileSync("ls", ["/usr/lib/postgresql"])
      .toString()
      .trim()
      .split("\n")
      .sort((a, b) => Number(a) - Number(b))
      .at(-1) ?? "15";
  runPgTool("pg_createcluster", [version, PRIMARY_CLUSTER, "-p", String(PRIMARY_PORT), "--", "--auth=trust"]);
  runPgTool("pg_ctlcluster", [...CTL, version, PRIMARY_CLUSTER, "start"]);
  await prepareClusterDatabase(clusterSettings, (line) => console.log(line));
  const probe = await replicaUp(replica, (line) => console.log(line));
  expect(probe.state).toBe("streaming");
  const app = await start(APP_PORT, {
    DATABASE_URL,
    DATABASE_REPLICA_URL: replica.standbyUrl,
    REPLICA_MAX_LAG_MS: String(MAX_LAG_MS),
    AUTH_MODE: "demo",
    RATE_LIMIT_MAX: "1000000000",
    LOG_LEVEL: "warn",
  });
  appUrl = app.url;
});

test.afterAll(async () => {
  if (!hasPgCreateCluster() || process.getuid?.() !== 0) return;
  await replicaDown(replica, () => undefined).catch((e: Error) => console.warn(e.message));
  dropPrimary();
  rmSync(stateDir, { recursive: true, force: true });
});

interface Health {
  database: { reads: "primary" | "replica" };
  replica: { state: string; lag_ms: number | null; fallbacks: number };
}

async function health(): Promise<Health> {
  const res = await httpGet(`${appUrl}/api/health`);
  if (isFailure(res)) throw new Error(res.error);
  return JSON.parse(res.body) as Health;
}

const readsGo = async () => (await health()).database.reads;

/** Readers keeping one read each in flight (profile, transaction page, search) until `stop()`. */
function readers(count = 4) {
  const results: { path: string; result: HttpResult | HttpFailure }[] = [];
  let stopped = false;
  const reader = async (n: number) => {
    for (let i = 0; !stopped; i++) {
      const player = PLAYERS[(n + i) % PLAYERS.length] ?? "P000001";
      const paths = [
        `/api/v1/players/${player}`,
        `/api/v1/players/${player}/transactions?limit=20`,
        "/api/v1/players?q=a",
      ];
      const p = paths[i % paths.length] ?? "";
      const result = await httpGet(
        `${appUrl}${p}`,
        { Authorization: "Bearer demo", "X-Session-ID": SESSION },
        30_000,
      );
      results.push({ path: p, result });
    }
  };
  const running = Array.from({ length: count }, (_, n) => reader(n));
  const failed = () =>
    results
      .filter((r) => isFailure(r.result) || r.result.status !== 200)
      .map((r) => `${r.path}: ${JSON.stringify(r.result).slice(0, 200)}`);
  return {
    count: () => results.length,
    failed,
    async stop() {
      stopped = true;
      await Promise.all(running);
    },
  };
}

async function standbyQuery<T extends pg.QueryResultRow>(sql: string): Promise<T[]> {
  const client = new pg.Client({ connectionString: replica.standbyUrl });
  await client.connect();
  try {
    return (await client.query<T>(sql)).rows;
  } finally {
    await client.end();
  }
}

test("reads go to the streaming standby; /api/health and cluster:status say so", async () => {
  await expect.poll(readsGo, { timeout: 30_000 }).toBe("replica");
  const res = await httpGet(`${appUrl}/api/v1/players/P000007`, {
    Authorization: "Bearer demo",
    "X-Session-ID": SESSION,
  });
  expect(isFailure(res) ? res.error : res.status).toBe(200);
  // The app's own connections on the standby (the monitor's are named apart).
  const [row] = await standbyQuery<{ n: number }>(
    "SELECT count(*)::int AS n FROM pg_stat_activity WHERE datname = current_database() AND application_name <> 'par-replica-monitor' AND pid <> pg_backend_pid()",
  );
  expect(row?.n).toBeGreaterThan(0);
  const status = await clusterStatus(clusterSettings, replica);
  expect(status.replica).toMatchObject({
    configured: true,
    state: "streaming",
    pendingBytes: expect.any(Number),
  });
});

/** Scans of a table on the standby: the standby counts its own reads (pg_stat_user_tables is per server). */
async function standbyScans(table: string): Promise<number> {
  const [row] = await standbyQuery<{ n: string }>(
    `SELECT (seq_scan + coalesce(idx_scan, 0))::text AS n FROM pg_stat_user_tables WHERE relname = '${table}'`,
  );
  return Number(row?.n ?? 0);
}

// The three reads that once missed the standby (each call site had to route itself): now every definition's
// run is handed the routed client (platform/reads/run-read.ts).
for (const [read, path, table] of [
  ["the batch read", "/api/v1/players?ids=P000001,P000002", "players"],
  ["the profiles export", "/api/v1/exports/players", "players"],
  ["the change feed", "/api/v1/changes?limit=5", "changes"],
] as const) {
  test(`${read} reads the standby`, async () => {
    await expect.poll(readsGo, { timeout: 30_000 }).toBe("replica");
    const before = await standbyScans(table);
    const res = await httpGet(`${appUrl}${path}`, { Authorization: "Bearer demo", "X-Session-ID": SESSION });
    expect(isFailure(res) ? res.error : res.status).toBe(200);
    // A backend reports its counts within a second or so of its transaction's end.
    await expect.poll(() => standbyScans(table), { timeout: 15_000 }).toBeGreaterThan(before);
  });
}

test("the standby stopped under a load of reads: no read fails, reads return to it once it is back", async () => {
  test.setTimeout(180_000);
  await expect.poll(readsGo, { timeout: 30_000 }).toBe("replica");
  const load = readers();
  await expect.poll(load.count, { timeout: 60_000 }).toBeGreaterThan(30);
  runPgTool("pg_ctlcluster", [...CTL, version, replica.cluster, "stop", "-m", "immediate"]);
  await expect.poll(readsGo, { timeout: 30_000 }).toBe("primary");
  expect((await clusterStatus(clusterSettings, replica)).replica.state).toBe("unreachable");
  const during = load.count();
  await expect.poll(load.count, { timeout: 60_000 }).toBeGreaterThan(during + 30);
  runPgTool("pg_ctlcluster", [...CTL, version, replica.cluster, "start"]);
  const back = performance.now();
  await expect.poll(readsGo, { timeout: 30_000, intervals: [50] }).toBe("replica");
  const backMs = Math.round(performance.now() - back);
  const after = load.count();
  await expect.poll(load.count, { timeout: 60_000 }).toBeGreaterThan(after + 30);
  await load.stop();
  const figures = {
    reads: load.count(),
    failed: load.failed().length,
    backOnStandbyMs: backMs,
    health: await health(),
  };
  console.log(`replica stopped under load: ${JSON.stringify(figures)}`);
  test.info().annotations.push({ type: "figures", description: JSON.stringify(figures) });
  expect(load.failed()).toEqual([]);
});

test("replay paused beyond the lag bound while the primary takes writes: reads move to the primary", async () => {
  test.setTimeout(120_000);
  await expect.poll(readsGo, { timeout: 30_000 }).toBe("replica");
  const primary = new pg.Client({ connectionString: DATABASE_URL });
  await primary.connect();
  const marker = `Replica Test ${randomUUID().slice(0, 8)}`;
  const [{ name: original } = { name: "" }] = (
    await primary.query<{ name: string }>("SELECT name FROM players WHERE id = 'P000042'")
  ).rows;
  let writing = true;
  try {
    await standbyQuery("SELECT pg_wal_replay_pause()");
    const writer = (async () => {
      for (let i = 0; writing; i++) {
        await primary.query("SELECT pg_notify('replica_test', $1)", [String(i)]);
        await primary.query("UPDATE players SET name = $1 WHERE id = 'P000042'", [marker]);
        await new Promise((r) => setTimeout(r, 100));
      }
    })();
    await expect.poll(readsGo, { timeout: 30_000 }).toBe("primary");
    const h = await health();
    expect(h.replica.state).toBe("paused");
    expect(h.replica.lag_ms).toBeGreaterThan(MAX_LAG_MS);
    expect((await clusterStatus(clusterSettings, replica)).replica.state).toBe("paused");
    // Read from the primary: the standby has not replayed this change.
    const res = await httpGet(`${appUrl}/api/v1/players/P000042`, {
      Authorization: "Bearer demo",
      "X-Session-ID": SESSION,
    });
    expect(isFailure(res) ? res.error : JSON.parse(res.body).name).toBe(marker);
    const [stale] = await standbyQuery<{ name: string }>("SELECT name FROM players WHERE id = 'P000042'");
    expect(stale?.name).not.toBe(marker);
    writing = false;
    await writer;
  } finally {
    writing = false;
    await standbyQuery("SELECT pg_wal_replay_resume()").catch(() => undefined);
    await primary.query("UPDATE players SET name = $1 WHERE id = 'P000042'", [original]);
    await primary.end();
  }
  await expect.poll(readsGo, { timeout: 30_000 }).toBe("replica");
});
