/*
 * Reads per second through HAProxy with one instance and with every instance of the running cluster
 * (`npm run cluster:up` first; with RATE_LIMIT_MAX high enough not to answer 429, e.g. RATE_LIMIT_MAX=1000000000,
 * which keeps the Redis counter in every request's path):
 *
 *   npm run cluster:bench -- [--duration 5] [--rounds 3] [--connections 16]
 *
 * Both sides go through the same HAProxy: for "1 instance" the others are put in maintenance on HAProxy's admin
 * socket, and put back (and given their slow start) before the next side. Rounds interleave the sides, the order
 * alternating, and the figures are the medians over the rounds: the machine is shared, a neighbour's load lands
 * on one round, not on one side. Requests rotate over a profile and two transaction pages (demo token; set
 * CLUSTER_BENCH_TOKEN for AUTH_MODE=jwt).
 */
import os from "node:os";
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { median } from "../median.ts";
import { readClusterSettings } from "./cluster-settings.ts";
import { readClusterState } from "./cluster-state.ts";
import { adminSocketPath, setServerEnabled, waitForServers } from "./haproxy.ts";

export interface ClusterBenchArgs {
  durationSeconds: number;
  rounds: number;
  connections: number;
}

const USAGE = "usage: npm run cluster:bench -- [--duration SECONDS] [--rounds N] [--connections N]";

export function parseClusterBenchArgs(argv: readonly string[]): ClusterBenchArgs {
  const out: ClusterBenchArgs = { durationSeconds: 5, rounds: 3, connections: 16 };
  const keys: Record<string, keyof ClusterBenchArgs> = {
    "--duration": "durationSeconds",
    "--rounds": "rounds",
    "--connections": "connections",
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag = "", inline] = (argv[i] ?? "").split("=", 2);
    const key = keys[flag];
    const text = inline ?? argv[++i];
    const value = Number(text);
    if (!key || !Number.isInteger(value) || value < 1 || value > 10_000) {
      throw new Error(
        `${flag || "(empty)"}: ${key ? `not a positive integer: ${text}` : "unknown option"}\n${USAGE}`,
      );
    }
    out[key] = value;
  }
  return out;
}

const PATHS = [
  "/api/v1/players/P000007",
  "/api/v1/players/P000042/transactions?limit=20",
  "/api/v1/players/P000007/transactions?limit=50&event_type=deposit",
];

interface Side {
  instances: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
}

/** Only the first `count` servers in rotation, once HAProxy reports them UP (and past their slow start). */
async function rotateInstances(socket: string, names: readonly string[], count: number): Promise<void> {
  const active = names.slice(0, count);
  let enabledAny = false;
  for (const [i, name] of names.entries()) {
    await setServerEnabled(socket, name, i < count);
    if (i < count) enabledAny = true;
  }
  await waitForServers(socket, active, "UP", 60_000);
  if (enabledAny) await new Promise((r) => setTimeout(r, 6_000)); // slowstart 5s in deploy/haproxy/haproxy.cfg
}

async function measure(url: string, args: ClusterBenchArgs, token: string, instances: number): Promise<Side> {
  const result = await autocannon({
    url,
    connections: args.connections,
    duration: args.durationSeconds,
    headers: { Authorization: `Bearer ${token}`, "X-Session-ID": "cluster-bench" },
    requests: PATHS.map((path) => ({ method: "GET", path })),
  });
  const completed = result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"];
  return {
    instances,
    rps: result.duration > 0 ? completed / result.duration : 0,
    p50: result.latency.p50,
    p99: result.latency.p99,
    non2xx: result.non2xx,
    errors: result.errors + result.timeouts,
  };
}

export async function runClusterBench(args: ClusterBenchArgs): Promise<{ one: Side[]; all: Side[] }> {
  const settings = readClusterSettings(process.env);
  const state = readClusterState(settings.stateDir);
  if (!state || state.instances.length < 2) {
    throw new Error("needs a running cluster of at least 2 instances: npm run cluster:up");
  }
  const socket = adminSocketPath(settings.stateDir);
  const names = state.instances.map((i) => i.name);
  const url = `http://${state.host}:${state.port}`;
  const token = process.env.CLUSTER_BENCH_TOKEN ?? "demo-token";
  const one: Side[] = [];
  const all: Side[] = [];
  try {
    for (let round = 1; round <= args.rounds; round++) {
      const order = round % 2 === 1 ? [1, names.length] : [names.length, 1];
      for (const count of order) {
        await rotateInstances(socket, names, count);
        // One second unmeasured: connections to the instance just put back are opened and warm.
        await autocannon({
          url,
          connections: args.connections,
          duration: 1,
          headers: { Authorization: `Bearer ${token}` },
          requests: PATHS.map((path) => ({ method: "GET", path })),
        });
        const side = await measure(url, args, token, count);
        (count === 1 ? one : all).push(side);
        console.error(
          `round ${round}: ${count} instance(s) ${side.rps.toFixed(0)} req/s, p50 ${side.p50} ms, p99 ${side.p99} ms, non-2xx ${side.non2xx}, errors ${side.errors}; load average ${os.loadavg()[0]?.toFixed(1)}`,
        );
      }
    }
  } finally {
    for (const name of names) await setServerEnabled(socket, name, true);
  }
  return { one, all };
}

function summary(sides: Side[]) {
  return {
    rps: Math.round(median(sides.map((s) => s.rps))),
    p50: median(sides.map((s) => s.p50)),
    p99: median(sides.map((s) => s.p99)),
    non2xx: sides.reduce((n, s) => n + s.non2xx, 0),
    errors: sides.reduce((n, s) => n + s.errors, 0),
  };
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    const args = parseClusterBenchArgs(process.argv.slice(2));
    const { one, all } = await runClusterBench(args);
    const a = summary(one);
    const b = summary(all);
    const n = all[0]?.instances ?? 0;
    console.log(
      `\nThrough HAProxy, ${args.connections} connections, ${args.durationSeconds} s × ${args.rounds} interleaved rounds (medians), ${os.cpus().length} cores:`,
    );
    console.log("| instances | req/s | p50 ms | p99 ms | non-2xx | errors |");
    console.log("| --- | ---: | ---: | ---: | ---: | ---: |");
    console.log(`| 1 | ${a.rps} | ${a.p50} | ${a.p99} | ${a.non2xx} | ${a.errors} |`);
    console.log(`| ${n} | ${b.rps} | ${b.p50} | ${b.p99} | ${b.non2xx} | ${b.errors} |`);
    console.log(`\n${n} instances / 1: ${(b.rps / Math.max(a.rps, 1)).toFixed(2)}×`);
    if (a.non2xx + b.non2xx > 0) {
      console.log(
        "Some answers were not 2xx (429: start the cluster with a higher RATE_LIMIT_MAX): the figures are not comparable.",
      );
    }
  } catch (error) {
    console.error((error as Error).message);
    process.exit(1);
  }
}
