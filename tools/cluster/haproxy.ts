/*
 * HAProxy for the cluster and its test: the repository's config (deploy/haproxy/haproxy.cfg) with the instances'
 * server lines written in, Debian's binary (installed with apt-get when missing and allowed), the process, and
 * its admin socket (server states and counters, taking a server out and back for the benchmark).
 */
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import { closeSync, existsSync, openSync, readFileSync } from "node:fs";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const HAPROXY_CONFIG = fileURLToPath(new URL("../../deploy/haproxy/haproxy.cfg", import.meta.url));
export const BACKEND = "app";

const BEGIN = "# BEGIN servers";
const END = "# END servers";

export interface HaproxyServer {
  name: string;
  /** Where HAProxy connects: `host:port`, or `unix@<path>` for a Unix socket. */
  address: string;
}

/** The instances' names in HAProxy (app1, app2, …) and TCP addresses. */
export function serversFor(host: string, ports: readonly number[]): HaproxyServer[] {
  return ports.map((port, i) => ({ name: `app${i + 1}`, address: `${host}:${port}` }));
}

/** The instances' names in HAProxy and their Unix sockets (`instanceSocketPath`). */
export function socketServersFor(socketDir: string, count: number): HaproxyServer[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `app${i + 1}`;
    return { name, address: `unix@${instanceSocketPath(socketDir, name)}` };
  });
}

/** Where an instance listens in the cluster's socket directory. */
export function instanceSocketPath(socketDir: string, name: string): string {
  return path.join(socketDir, `${name}.sock`);
}

/** The config with the lines between the BEGIN/END server markers replaced by one `server` line per instance. */
export function renderHaproxyConfig(template: string, servers: readonly HaproxyServer[]): string {
  const lines = template.split("\n");
  const begin = lines.findIndex((l) => l.trim().startsWith(BEGIN));
  const end = lines.findIndex((l) => l.trim() === END);
  if (begin === -1 || end <= begin) throw new Error(`the HAProxy config has no "${BEGIN}" … "${END}" block`);
  if (servers.length === 0) throw new Error("no servers");
  const indent = /^\s*/.exec(lines[begin] ?? "")?.[0] ?? "";
  const serverLines = servers.map((s) => `${indent}server ${s.name} ${s.address}`);
  return [...lines.slice(0, begin + 1), ...serverLines, ...lines.slice(end)].join("\n");
}

/** The variables the config reads (see its header). */
export function haproxyEnv(options: {
  bind: string;
  proxySource: string;
  stateDir: string;
}): Record<string, string> {
  return {
    CLUSTER_BIND: options.bind,
    CLUSTER_PROXY_SOURCE: options.proxySource,
    CLUSTER_STATE_DIR: options.stateDir,
  };
}

const CANDIDATES = ["/usr/sbin/haproxy", "/usr/bin/haproxy", "/usr/local/sbin/haproxy"];

/** The haproxy binary on this machine, or null. */
export function findHaproxy(): string | null {
  for (const candidate of CANDIDATES) if (existsSync(candidate)) return candidate;
  try {
    return execFileSync("sh", ["-c", "command -v haproxy"], { encoding: "utf8" }).trim() || null;
  } catch {
    return null;
  }
}

/**
 * The haproxy binary, installed from Debian's packages when missing (`apt-get install -y haproxy`, as root;
 * `apt-get update` first if the package lists are stale). null when it is neither there nor installable here.
 */
export function ensureHaproxy(log: (line: string) => void = () => {}): string | null {
  const found = findHaproxy();
  if (found) return found;
  if (process.getuid?.() !== 0 || !existsSync("/usr/bin/apt-get")) return null;
  const install = () =>
    execFileSync("apt-get", ["install", "-y", "-qq", "haproxy"], {
      env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
      stdio: ["ignore", "ignore", "pipe"],
    });
  log("haproxy is not installed: apt-get install -y haproxy");
  try {
    install();
  } catch {
    try {
      execFileSync("apt-get", ["update", "-qq"], { stdio: ["ignore", "ignore", "pipe"] });
      install();
    } catch (error) {
      log(`could not install haproxy: ${(error as Error).message.split("\n")[0]}`);
      return null;
    }
  }
  return findHaproxy();
}

/** `haproxy -c`: null when the file is valid, else HAProxy's complaint. */
export function checkHaproxyConfig(binary: string, file: string, env: Record<string, string>): string | null {
  try {
    execFileSync(binary, ["-c", "-q", "-f", file], { env: { ...process.env, ...env }, stdio: "pipe" });
    return null;
  } catch (error) {
    const e = error as { stderr?: Buffer; stdout?: Buffer; message: string };
    return `${e.stdout?.toString() ?? ""}${e.stderr?.toString() ?? ""}`.trim() || e.message;
  }
}

export interface HaproxyProcess {
  child: ChildProcess;
  pid: number;
  exited: Promise<number | string>;
  /** What it wrote (when not detached to a log file). */
  output(): string;
  stop(): Promise<void>;
}

/**
 * Starts HAProxy in the foreground on `file`. `logFile`: its output goes there and the process outlives this one
 * (cluster:up); otherwise it is kept in memory and the process is this one's child (the test).
 */
export function spawnHaproxy(
  binary: string,
  file: string,
  env: Record<string, string>,
  logFile?: string,
): HaproxyProcess {
  const fd = logFile ? openSync(logFile, "a") : undefined;
  const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", ...env };
  const child: ChildProcess = spawn(binary, ["-db", "-f", file], {
    env: childEnv as NodeJS.ProcessEnv,
    stdio: ["ignore", fd ?? "pipe", fd ?? "pipe"],
    detached: fd !== undefined,
  });
  if (fd !== undefined) {
    closeSync(fd);
    child.unref();
  }
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const exited = new Promise<number | string>((resolve) =>
    child.once("exit", (code, signal) => resolve(code ?? signal ?? "unknown")),
  );
  return {
    child,
    pid: child.pid ?? 0,
    exited,
    output: () => output,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill("SIGTERM");
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The admin socket's path for a state directory (the config puts it there). */
export function adminSocketPath(stateDir: string): string {
  return path.join(stateDir, "haproxy.sock");
}

/** One command on HAProxy's admin socket; resolves with its answer. */
export function haproxyCommand(socketPath: string, command: string, timeoutMs = 3_000): Promise<string> {
  return new Promise((resolve, reject) => {
    let answer = "";
    const socket = net.connect(socketPath, () => socket.end(`${command}\n`));
    socket.setEncoding("utf8");
    socket.setTimeout(timeoutMs, () =>
      socket.destroy(new Error(`haproxy admin socket: no answer to ${command}`)),
    );
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(answer));
  });
}

export interface ServerStat {
  name: string;
  /** UP, DOWN, MAINT, "UP 1/2" (going down), … as HAProxy reports it. */
  status: string;
  /** Requests (sessions) it was given in total. */
  total: number;
  /** Requests (sessions) it has now: at most `maxconn` per server. */
  current: number;
  /** Connection retries and redispatches HAProxy made on its behalf. */
  retries: number;
  redispatches: number;
}

/** `show stat` of the backend: one entry per server, and the backend's own line under the name BACKEND. */
export async function backendStats(socketPath: string, backend = BACKEND): Promise<ServerStat[]> {
  const csv = await haproxyCommand(socketPath, "show stat");
  const [header = "", ...rows] = csv.split("\n").filter(Boolean);
  const columns = header.replace(/^# /, "").split(",");
  const at = (name: string) => columns.indexOf(name);
  return rows
    .map((row) => row.split(","))
    .filter((cells) => cells[at("pxname")] === backend)
    .map((cells) => ({
      name: cells[at("svname")] ?? "",
      status: cells[at("status")] ?? "",
      total: Number(cells[at("stot")] ?? 0),
      current: Number(cells[at("scur")] || 0),
      retries: Number(cells[at("wretr")] || 0),
      redispatches: Number(cells[at("wredis")] || 0),
    }));
}

/** HTTP requests a frontend has received in total (`req_tot`), whatever became of them. */
export async function frontendRequests(socketPath: string, frontend = "read_service"): Promise<number> {
  const csv = await haproxyCommand(socketPath, "show stat");
  const [header = "", ...rows] = csv.split("\n").filter(Boolean);
  const columns = header.replace(/^# /, "").split(",");
  const row = rows
    .map((r) => r.split(","))
    .find(
      (cells) =>
        cells[columns.indexOf("pxname")] === frontend && cells[columns.indexOf("svname")] === "FRONTEND",
    );
  if (!row) throw new Error(`haproxy: no frontend ${frontend}`);
  return Number(row[columns.indexOf("req_tot")] || 0);
}

/** Takes a server out of rotation (maintenance) or puts it back; HAProxy then checks it again before use. */
export async function setServerEnabled(socketPath: string, server: string, enabled: boolean): Promise<void> {
  const answer = await haproxyCommand(
    socketPath,
    `${enabled ? "enable" : "disable"} server ${BACKEND}/${server}`,
  );
  if (answer.trim()) throw new Error(`haproxy: ${answer.trim()}`);
}

/** Waits until HAProxy reports each named server in `status` (e.g. "UP"); throws after `timeoutMs`. */
export async function waitForServers(
  socketPath: string,
  servers: readonly string[],
  status: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: ServerStat[] = [];
  for (;;) {
    try {
      last = await backendStats(socketPath);
      if (servers.every((name) => last.find((s) => s.name === name)?.status === status)) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      const seen = last.map((s) => `${s.name} ${s.status}`).join(", ") || "no answer";
      throw new Error(
        `HAProxy did not report ${servers.join(", ")} ${status} within ${timeoutMs} ms (${seen})`,
      );
    }
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** The config file as it is in the repository. */
export function readHaproxyTemplate(): string {
  return readFileSync(HAPROXY_CONFIG, "utf8");
}
