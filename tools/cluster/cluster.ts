/*
 * Several instances of the production build behind HAProxy, on this machine (docs/scale-out.md):
 *
 *   npm run cluster:up        # HAProxy on CLUSTER_PORT (8080), CLUSTER_INSTANCES (2) instances from CLUSTER_PORT + 1
 *   npm run cluster:status    # JSON: HAProxy and each instance's pid, port and health
 *   npm run cluster:down      # stops everything cluster:up started
 *
 * With CLUSTER_REPLICA=on (or `cluster:up -- --replica`), a streaming hot standby of the database's server is made
 * first (tools/cluster/replica.ts, REPLICA_PORT, REPLICA_CLUSTER) and the instances read from it
 * (DATABASE_REPLICA_URL); cluster:status shows its state and lag, cluster:down drops it and its slot.
 *
 * Settings: tools/cluster/cluster-settings.ts (CLUSTER_*, DATABASE_URL, REDIS_URL, AUTH_MODE); the instances'
 * other settings pass through from the environment. Processes outlive this command: their pids are in the state
 * directory (CLUSTER_STATE_DIR, .data/cluster), with their logs.
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import {
  chmodSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import http from "node:http";
import net from "node:net";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { compiledScriptsPresent } from "../../scripts/compiled-scripts.mjs";
import { runMain } from "../run-main.ts";
import { prepareClusterDatabase } from "./cluster-database.ts";
import { type ClusterSettings, readClusterSettings, redactUrl } from "./cluster-settings.ts";
import {
  type ClusterState,
  COMMAND_MARK,
  clearClusterState,
  isOurProcess,
  type ProcessRecord,
  readClusterState,
  writeClusterState,
} from "./cluster-state.ts";
import {
  adminSocketPath,
  backendStats,
  checkHaproxyConfig,
  ensureHaproxy,
  haproxyEnv,
  instanceSocketPath,
  readHaproxyTemplate,
  renderHaproxyConfig,
  type ServerStat,
  serversFor,
  socketServersFor,
  spawnHaproxy,
  waitForServers,
} from "./haproxy.ts";
import { clusterInstanceEnv, sharedSecrets } from "./instance-env.ts";
import { findCluster, replicaDown, replicaUp } from "./replica.ts";
import { type ReplicaSettings, readReplicaSettings, standbyUrlFor } from "./replica-settings.ts";
import { probeReplica } from "./replica-status.ts";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
/** Moves each instance's listening port to its Unix socket (instance-listen.mjs). */
const INSTANCE_LISTEN = pathToFileURL(fileURLToPath(new URL("./instance-listen.mjs", import.meta.url))).href;
const say = (line: string) => console.error(`cluster: ${line}`);

/** A port nobody listens on yet at `host` (cluster:up refuses to start over something else). */
function portFree(host: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

function buildExists(): boolean {
  return (
    existsSync(path.join(ROOT, process.env.NEXT_DIST_DIR ?? ".next", "BUILD_ID")) &&
    compiledScriptsPresent(ROOT)
  );
}

/**
 * One instance: `node scripts/serve.mjs start`, detached, its output appended to its log. `port` is the one Next.js
 * is told; instance-listen.mjs (in `env`) makes it listen on its Unix socket instead.
 */
function spawnInstance(port: number, env: Record<string, string | undefined>, logFile: string): ChildProcess {
  const childEnv: Record<string, string> = { NEXT_TELEMETRY_DISABLED: "1" };
  for (const [name, value] of Object.entries(env)) if (value !== undefined) childEnv[name] = value;
  const fd = openSync(logFile, "a");
  const child = spawn(
    process.execPath,
    ["scripts/serve.mjs", "start", "--port", String(port), "--hostname", "127.0.0.1"],
    {
      cwd: ROOT,
      env: childEnv as NodeJS.ProcessEnv,
      stdio: ["ignore", fd, fd],
      detached: true,
    },
  );
  closeSync(fd);
  child.unref();
  return child;
}

/** The cluster's Unix sockets: the directory only this user may enter (0700). */
export function socketDirOf(stateDir: string): string {
  return path.join(stateDir, "sockets");
}

type InstanceAnswer = { status: number; body: string } | { error: string };

/** GET `target` from an instance over its Unix socket (the only place it listens); never rejects. */
export function instanceGet(socketPath: string, target: string, timeoutMs: number): Promise<InstanceAnswer> {
  return new Promise((resolve) => {
    const req = http.get(
      { socketPath, path: target, headers: { Host: "localhost", Connection: "close" }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString("utf8") }),
        );
        res.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
      },
    );
    req.setTimeout(timeoutMs, () => req.destroy(Object.assign(new Error("timeout"), { code: "TIMEOUT" })));
    req.on("error", (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? e.message }));
  });
}

async function waitHealthy(socketPath: string, record: ProcessRecord, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (!isOurProcess(record.pid, COMMAND_MARK.instance)) {
      throw new Error(`${record.name} exited during start; its log (${record.log}):\n${tail(record.log)}`);
    }
    const res = await instanceGet(socketPath, "/api/health", 5_000);
    if ("status" in res && res.status === 200) return;
    if (Date.now() > deadline) {
      throw new Error(
        `${record.name} did not answer /api/health within ${timeoutMs} ms; its log:\n${tail(record.log)}`,
      );
    }
    await new Promise((r) => setTimeout(r, 300));
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, "utf8").trimEnd().split("\n").slice(-lines).join("\n");
  } catch {
    return "(no log)";
  }
}

/** Refused before anything was started: nothing to stop. */
class StartRefused extends Error {}

/** Refuses to start over a running cluster, on HAProxy's port in use, or without HAProxy; returns its binary. */
async function preflight(settings: ClusterSettings): Promise<string> {
  const existing = readClusterState(settings.stateDir);
  const alive = (p: ProcessRecord) =>
    isOurProcess(p.pid, p.name === "haproxy" ? COMMAND_MARK.haproxy : COMMAND_MARK.instance);
  if (existing && [existing.haproxy, ...existing.instances].some(alive)) {
    throw new StartRefused(`a cluster is already running (${settings.stateDir}): npm run cluster:down first`);
  }
  // The instances open no port (their Unix sockets are in the state directory): HAProxy's alone must be free.
  if (!(await portFree(settings.host, settings.port))) {
    throw new StartRefused(`port ${settings.port} on ${settings.host} is in use`);
  }
  const binary = ensureHaproxy(say);
  if (!binary) {
    throw new StartRefused(
      "haproxy is not installed and cannot be installed here (apt-get install -y haproxy, as root)",
    );
  }
  return binary;
}

/** The production build (made when there is none) and the database. */
async function prepareBuildAndDatabase(settings: ClusterSettings): Promise<void> {
  if (!buildExists()) {
    say("no production build: npm run build");
    execFileSync("npm", ["run", "build"], { cwd: ROOT, stdio: "inherit" });
  }
  mkdirSync(settings.stateDir, { recursive: true });
  const socketDir = socketDirOf(settings.stateDir);
  mkdirSync(socketDir, { recursive: true, mode: 0o700 });
  chmodSync(socketDir, 0o700);
  say(`database ${redactUrl(settings.databaseUrl)}`);
  await prepareClusterDatabase(settings, say);
}

interface HaproxySetup {
  binary: string;
  file: string;
  variables: Record<string, string>;
}

/** deploy/haproxy/haproxy.cfg with this cluster's servers, in the state directory, checked by `haproxy -c`. */
function writeHaproxyConfig(settings: ClusterSettings, binary: string): HaproxySetup {
  const file = path.join(settings.stateDir, "haproxy.cfg");
  writeFileSync(
    file,
    renderHaproxyConfig(
      readHaproxyTemplate(),
      socketServersFor(socketDirOf(settings.stateDir), settings.instances),
    ),
  );
  const variables = haproxyEnv({
    bind: `${settings.host}:${settings.port}`,
    proxySource: settings.proxySource,
    stateDir: settings.stateDir,
  });
  const invalid = checkHaproxyConfig(binary, file, variables);
  if (invalid) throw new StartRefused(`haproxy refuses ${file}:\n${invalid}`);
  return { binary, file, variables };
}

/** Spawns the instances and HAProxy, and records them at once: a start that fails later is still stopped. */
function startProcesses(
  settings: ClusterSettings,
  env: Record<string, string | undefined>,
  haproxySetup: HaproxySetup,
  replica: ReplicaSettings | null,
): ClusterState {
  const instanceEnv = { ...env, ...clusterInstanceEnv(settings, sharedSecrets(settings.stateDir, env)) };
  if (replica) instanceEnv.DATABASE_REPLICA_URL = standbyUrlFor(settings.databaseUrl, replica.port);
  const instances: ProcessRecord[] = serversFor("127.0.0.1", settings.appPorts).map((server, i) => {
    const port = settings.appPorts[i] ?? 0;
    const log = path.join(settings.stateDir, `${server.name}.log`);
    const socket = instanceSocketPath(socketDirOf(settings.stateDir), server.name);
    const child = spawnInstance(
      port,
      {
        ...instanceEnv,
        NODE_OPTIONS: `${instanceEnv.NODE_OPTIONS ?? ""} --import=${INSTANCE_LISTEN}`.trim(),
        CLUSTER_INSTANCE_SOCKET: socket,
        CLUSTER_INSTANCE_PORT: String(port),
        CLUSTER_INSTANCE_PEER: settings.proxySource,
      },
      log,
    );
    return { name: server.name, pid: child.pid ?? 0, port, socket, log };
  });
  const haproxyLog = path.join(settings.stateDir, "haproxy.log");
  const haproxy = spawnHaproxy(haproxySetup.binary, haproxySetup.file, haproxySetup.variables, haproxyLog);
  const state: ClusterState = {
    startedAt: new Date().toISOString(),
    host: settings.host,
    port: settings.port,
    proxySource: settings.proxySource,
    config: haproxySetup.file,
    database: redactUrl(settings.databaseUrl),
    redis: redactUrl(settings.redisUrl),
    haproxy: { name: "haproxy", pid: haproxy.pid, port: settings.port, log: haproxyLog },
    instances,
    ...(replica ? { replica: { cluster: replica.cluster, port: replica.port, slot: replica.slot } } : {}),
  };
  writeClusterState(settings.stateDir, state);
  return state;
}

/**
 * Starts the cluster and resolves with its status once every instance is UP in HAProxy. `env`: the operator's
 * environment, which the instances inherit under the cluster's own settings.
 */
export async function clusterUp(
  settings: ClusterSettings,
  env: Record<string, string | undefined> = process.env,
): Promise<ClusterStatus> {
  const binary = await preflight(settings);
  await prepareBuildAndDatabase(settings);
  const haproxySetup = writeHaproxyConfig(settings, binary);
  const replica = settings.replica ? replicaSettingsFor(settings, env) : null;
  try {
    if (replica) {
      say(`hot standby ${replica.cluster} on 127.0.0.1:${replica.port} (npm run replica:up)`);
      await replicaUp(replica, say);
    }
    const state = startProcesses(settings, env, haproxySetup, replica);
    say(`starting ${state.instances.length} instances (logs in ${settings.stateDir})`);
    await Promise.all(state.instances.map((record) => waitHealthy(record.socket ?? "", record, 180_000)));
    await waitForServers(
      adminSocketPath(settings.stateDir),
      state.instances.map((i) => i.name),
      "UP",
      30_000,
    );
  } catch (error) {
    // Whoever called (cluster:up, a test): what was started is stopped, the standby dropped.
    say(`start failed, stopping what was started: ${(error as Error).message.split("\n")[0]}`);
    if (readClusterState(settings.stateDir)) await clusterDown(settings, 10_000);
    else if (replica) await replicaDown(replica, say).catch((e: Error) => say(`replica: ${e.message}`));
    throw error;
  }
  say(`up: http://${settings.host}:${settings.port} (npm run cluster:status, npm run cluster:down)`);
  return clusterStatus(settings, replica);
}

/** The standby's settings: REPLICA_* from the environment, its primary the cluster's database server. */
export function replicaSettingsFor(
  settings: ClusterSettings,
  env: Record<string, string | undefined>,
  made?: ClusterState["replica"],
): ReplicaSettings {
  const replica = { ...readReplicaSettings({ REPLICA_PRIMARY_URL: settings.adminUrl, ...env }), ...made };
  return { ...replica, standbyUrl: standbyUrlFor(settings.databaseUrl, replica.port) };
}

/** Sends SIGTERM to each process still ours, waits up to `graceMs`, then SIGKILLs the instances' process groups. */
export async function clusterDown(settings: ClusterSettings, graceMs = 20_000): Promise<void> {
  const state = readClusterState(settings.stateDir);
  if (!state) {
    say(`no cluster state in ${settings.stateDir}: nothing to stop`);
    return;
  }
  const processes = [
    ...state.instances.map((p) => ({ ...p, mark: COMMAND_MARK.instance, group: true })),
    { ...state.haproxy, mark: COMMAND_MARK.haproxy, group: false },
  ].filter((p) => isOurProcess(p.pid, p.mark));
  for (const p of processes) process.kill(p.pid, "SIGTERM");
  const deadline = Date.now() + graceMs;
  while (processes.some((p) => isOurProcess(p.pid, p.mark)) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
  }
  for (const p of processes.filter((q) => isOurProcess(q.pid, q.mark))) {
    say(`${p.name} (pid ${p.pid}) did not stop within ${graceMs} ms: SIGKILL`);
    try {
      process.kill(p.group ? -p.pid : p.pid, "SIGKILL");
    } catch {
      // gone meanwhile
    }
  }
  if (state.replica) {
    await replicaDown(replicaSettingsFor(settings, process.env, state.replica), say).catch((error: Error) =>
      say(`replica: ${error.message}`),
    );
  }
  clearClusterState(settings.stateDir, state);
  // A killed instance leaves its socket file behind.
  for (const p of state.instances) if (p.socket) rmSync(p.socket, { force: true });
  say(`stopped ${processes.map((p) => `${p.name} (${p.pid})`).join(", ") || "nothing (none was running)"}`);
}

interface InstanceStatus {
  name: string;
  pid: number;
  port: number;
  /** The Unix socket it listens on (its only address), which HAProxy connects to. */
  socket: string | null;
  running: boolean;
  /** GET /api/health on the instance itself: its status and body, or the connection error. */
  health: { status: number; database?: unknown; audit?: unknown; replica?: unknown } | { error: string };
  /** The instance as HAProxy's health checks see it (UP, DOWN, MAINT, …). */
  haproxy: string | null;
  requests: number | null;
}

async function instanceHealth(socket: string | undefined): Promise<InstanceStatus["health"]> {
  if (!socket) return { error: "no socket recorded" };
  const res = await instanceGet(socket, "/api/health", 3_000);
  if ("error" in res) return { error: res.error };
  try {
    const body = JSON.parse(res.body) as { database?: unknown; audit?: unknown; replica?: unknown };
    return { status: res.status, database: body.database, audit: body.audit, replica: body.replica };
  } catch {
    return { status: res.status };
  }
}

export type ClusterStatus = Awaited<ReturnType<typeof clusterStatus>>;

export async function clusterStatus(settings: ClusterSettings, replica: ReplicaSettings | null = null) {
  const state = readClusterState(settings.stateDir);
  if (!state)
    return { running: false, stateDir: settings.stateDir, replica: await replicaReport(replica, []) };
  let stats: ServerStat[] = [];
  let haproxyError: string | undefined;
  try {
    stats = await backendStats(adminSocketPath(settings.stateDir));
  } catch (error) {
    haproxyError = (error as Error).message;
  }
  const instances: InstanceStatus[] = await Promise.all(
    state.instances.map(async (p) => {
      const stat = stats.find((s) => s.name === p.name);
      return {
        name: p.name,
        pid: p.pid,
        port: p.port,
        socket: p.socket ?? null,
        running: isOurProcess(p.pid, COMMAND_MARK.instance),
        health: await instanceHealth(p.socket),
        haproxy: stat?.status ?? null,
        requests: stat?.total ?? null,
      };
    }),
  );
  const backend = stats.find((s) => s.name === "BACKEND");
  return {
    running: isOurProcess(state.haproxy.pid, COMMAND_MARK.haproxy) && instances.some((i) => i.running),
    url: `http://${state.host}:${state.port}`,
    startedAt: state.startedAt,
    haproxy: {
      pid: state.haproxy.pid,
      port: state.port,
      running: isOurProcess(state.haproxy.pid, COMMAND_MARK.haproxy),
      config: state.config,
      proxySource: state.proxySource,
      ...(backend ? { retries: backend.retries, redispatches: backend.redispatches } : {}),
      ...(haproxyError ? { error: haproxyError } : {}),
    },
    instances,
    database: state.database,
    redis: state.redis,
    replica: await replicaReport(replica, instances),
  };
}

/**
 * The standby as seen from outside (its cluster, state, bytes pending, lag) and, per instance, where its reads go
 * now and the lag its router measured (their /api/health).
 */
async function replicaReport(replica: ReplicaSettings | null, instances: InstanceStatus[]) {
  if (!replica) return { configured: false as const, state: "none" as const, lagMs: null };
  const probe = await probeReplica(replica, findCluster(replica.cluster) !== null);
  const reads = instances.map((i) => {
    const health = "status" in i.health ? i.health : null;
    const database = health?.database as { reads?: string } | undefined;
    const routing = health?.replica as { state?: string; lag_ms?: number | null } | undefined;
    return {
      name: i.name,
      reads: database?.reads ?? null,
      state: routing?.state ?? null,
      lagMs: routing?.lag_ms ?? null,
    };
  });
  return { ...probe, instances: reads };
}

const USAGE = "usage: tsx tools/cluster/cluster.ts up|down|status";

export async function main(argv: readonly string[]): Promise<number> {
  const command = argv[0];
  const replicaFlag = argv.includes("--replica") ? { CLUSTER_REPLICA: "on" } : {};
  const settings = readClusterSettings({ ...process.env, ...replicaFlag }, ROOT);
  switch (command) {
    case "up":
      try {
        console.log(JSON.stringify(await clusterUp(settings), null, 2));
      } catch (error) {
        // clusterUp has stopped what it had started.
        say((error as Error).message);
        return 1;
      }
      return 0;
    case "down":
      await clusterDown(settings);
      return 0;
    case "status": {
      const state = readClusterState(settings.stateDir);
      const replica = state?.replica
        ? { ...replicaSettingsFor(settings, process.env), ...state.replica }
        : null;
      const report = await clusterStatus(settings, replica);
      console.log(JSON.stringify(report, null, 2));
      return report.running ? 0 : 3;
    }
    default:
      console.error(USAGE);
      return 2;
  }
}

runMain(import.meta.url, main);
