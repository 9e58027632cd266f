/*
 * What `cluster:up` started, kept in its state directory so that `cluster:status` and `cluster:down` (other
 * processes, later) find it: cluster.json (ports, pids, files) and one pid file per process (`haproxy.pid`,
 * `app1.pid`, …) for the shell.
 */
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import path from "node:path";

export interface ProcessRecord {
  name: string;
  pid: number;
  port: number;
  /** An instance's Unix socket, where it listens (HAProxy has none). */
  socket?: string;
  log: string;
}

export interface ClusterState {
  startedAt: string;
  host: string;
  port: number;
  proxySource: string;
  config: string;
  database: string;
  redis: string;
  haproxy: ProcessRecord;
  instances: ProcessRecord[];
  /** The hot standby cluster:up made (CLUSTER_REPLICA=on); cluster:down drops it and its slot. */
  replica?: { cluster: string; port: number; slot: string };
}

const STATE_FILE = "cluster.json";

export function readClusterState(stateDir: string): ClusterState | null {
  const file = path.join(stateDir, STATE_FILE);
  if (!existsSync(file)) return null;
  return JSON.parse(readFileSync(file, "utf8")) as ClusterState;
}

export function writeClusterState(stateDir: string, state: ClusterState): void {
  mkdirSync(stateDir, { recursive: true });
  writeFileSync(path.join(stateDir, STATE_FILE), `${JSON.stringify(state, null, 2)}\n`);
  for (const p of [state.haproxy, ...state.instances]) {
    writeFileSync(path.join(stateDir, `${p.name}.pid`), `${p.pid}\n`);
  }
}

export function clearClusterState(stateDir: string, state: ClusterState): void {
  for (const p of [state.haproxy, ...state.instances])
    rmSync(path.join(stateDir, `${p.name}.pid`), { force: true });
  rmSync(path.join(stateDir, STATE_FILE), { force: true });
}

/**
 * Whether `pid` is alive and still the process that was started (its command line names `expected`): a pid left
 * in a file after a reboot may belong to someone else by now, who must not be signalled.
 */
export function isOurProcess(pid: number, expected: string): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes(expected);
  } catch {
    // No /proc (not Linux): alive is all that can be known.
    return true;
  }
}

/** What each kind of process's command line contains. */
export const COMMAND_MARK = { haproxy: "haproxy", instance: "serve.mjs" } as const;
