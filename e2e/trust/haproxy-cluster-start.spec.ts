import { mkdirSync, readdirSync, readFileSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { TEST_SESSION_SECRET } from "../../test/support/app-process.ts";
import { TEST_REDIS_URL } from "../../test/support/test-redis.ts";
import { clusterDown, clusterUp } from "../../tools/cluster/cluster.ts";
import { readClusterSettings } from "../../tools/cluster/cluster-settings.ts";
import { readClusterState } from "../../tools/cluster/cluster-state.ts";
import { ensureHaproxy } from "../../tools/cluster/haproxy.ts";
import { appBase, postgresTestDatabase } from "./harness.ts";

/*
 * `cluster:up` whose instances cannot start (a setting the app refuses): clusterUp rejects, and before that it has
 * stopped what it started (HAProxy, the instances), whoever called it — no process of the cluster outlives it.
 */
const DATABASE_URL = postgresTestDatabase();
// After haproxy-cluster.spec.ts's ports (appBase + 22 … + 25) and replica-reads.spec.ts's (+ 27).
const PROXY_PORT = appBase + 28;
// One per run's ports, made in beforeAll: Playwright also loads this file in its main process, where nothing runs.
const stateDir = path.join(tmpdir(), `par-cluster-start-${PROXY_PORT}`);
const settings = readClusterSettings({
  DATABASE_URL,
  CLUSTER_PORT: String(PROXY_PORT),
  CLUSTER_INSTANCES: "2",
  CLUSTER_APP_PORT: String(appBase + 29),
  CLUSTER_STATE_DIR: stateDir,
  REDIS_URL: TEST_REDIS_URL,
  AUTH_MODE: "demo",
});

test.beforeAll(async () => {
  // A run killed midway may have left its cluster here: stopped, and the directory made anew.
  if (readClusterState(stateDir)) await clusterDown(settings, 5_000);
  rmSync(stateDir, { recursive: true, force: true });
  mkdirSync(stateDir, { recursive: true, mode: 0o700 });
});

test.afterAll(async () => {
  // Only if the test failed with the cluster still recorded.
  if (readClusterState(stateDir)) await clusterDown(settings, 5_000);
  rmSync(stateDir, { recursive: true, force: true });
});

/** Processes whose command line names the state directory (HAProxy's config, the instances' sockets). */
function processesOfThisCluster(): string[] {
  const found: string[] = [];
  for (const pid of readdirSync("/proc").filter((p) => /^\d+$/.test(p))) {
    try {
      const cmdline = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
      const environ = readFileSync(`/proc/${pid}/environ`, "utf8");
      if (cmdline.includes(stateDir) || environ.includes(stateDir)) found.push(`${pid} ${cmdline.trim()}`);
    } catch {
      // gone, or not ours to read
    }
  }
  return found;
}

function connects(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1", () => {
      socket.destroy();
      resolve(true);
    });
    socket.on("error", () => resolve(false));
  });
}

test("a start that fails stops what it started: no HAProxy, no instance, no state left", async () => {
  const binary = ensureHaproxy((line) => console.warn(line));
  if (!binary && process.env.CI === "true")
    throw new Error("haproxy is required under CI (.ci/run installs it)");
  test.skip(!binary, "haproxy is not installed and cannot be installed here");
  const env = {
    ...process.env,
    DB_ALLOW_PRIVILEGED_ROLE: "on",
    NEXTAUTH_SECRET: TEST_SESSION_SECRET,
    // Below the app's minimum (100): every instance refuses to start.
    DB_STATEMENT_TIMEOUT_MS: "1",
    LOG_LEVEL: "warn",
  };
  await expect(clusterUp(settings, env)).rejects.toThrow(/exited during start/);
  expect({
    state: readClusterState(stateDir),
    haproxyListening: await connects(PROXY_PORT),
    processes: processesOfThisCluster(),
  }).toEqual({ state: null, haproxyListening: false, processes: [] });
});
