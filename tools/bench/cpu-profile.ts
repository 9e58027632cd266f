/*
 * A CPU profile of a cheap read under load: the product as the benchmark runs it (production build, deployment
 * posture: product-posture.ts), or the floor app, or both one after the other. V8's sampling profiler runs in the
 * Next.js server process only, from after a warm-up to the end of the measured load (profile-hook.cjs); the
 * server's CPU time per request is read from /proc over the same window. Read the .cpuprofile files in Chrome's
 * DevTools (Performance panel); docs/performance.md says what earlier profiles found.
 *
 *   node --import tsx tools/bench/cpu-profile.ts --database-url postgresql://… [--scenario profile|small-first-page|portfolio]
 *     [--connections 32] [--seconds 15] [--target product|floor|both] [--port 4570] [--out DIR]
 */
import { existsSync, mkdirSync, mkdtempSync, readdirSync, renameSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { BENCH_BOOK_MANAGER } from "../data/generate-dataset.ts";
import { startApp, startHelperServer } from "./app-process.ts";
import { ensureFloorBuild, floorStartCommand } from "./floor-app/floor-server.ts";
import { pickBenchData } from "./pick-bench-data.ts";
import { treeCpuSeconds } from "./process-rss.ts";
import { benchHeaders, benchManagerHeaders, productBenchEnv } from "./product-posture.ts";

const HOOK = fileURLToPath(new URL("./profile-hook.cjs", import.meta.url));

interface Target {
  url: string;
  /** The Next.js server process: the one the hook profiles. */
  serverPid: () => number;
  stop: () => Promise<unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startTarget(name: string, port: number, databaseUrl: string, dir: string): Promise<Target> {
  const profiled = { PROFILE_DIR: dir };
  if (name === "product") {
    const env = { ...productBenchEnv(databaseUrl), NODE_OPTIONS: `--require ${HOOK}`, ...profiled };
    const app = await startApp(port, env, { stdoutFile: path.join(dir, "product-stdout.log") });
    return { url: app.url, serverPid: () => app.serverPid() ?? app.pid, stop: () => app.stop(15_000) };
  }
  ensureFloorBuild(false, console.log);
  const command = floorStartCommand(port, databaseUrl);
  const options = `${command.env.NODE_OPTIONS ?? ""} --require ${HOOK}`.trim();
  const env = { ...command.env, NODE_OPTIONS: options, ...profiled };
  const floor = await startHelperServer("floor app", { args: command.args, env }, port, "/api/health");
  return { url: floor.url, serverPid: () => floor.child.pid ?? 0, stop: () => floor.stop() };
}

/** Waits for the profile the hook writes after the second SIGUSR2, and names it after the target. */
async function awaitProfile(dir: string, pid: number, name: string): Promise<string> {
  for (let i = 0; i < 100; i++) {
    const file = readdirSync(dir).find((f) => f.startsWith(`server-${pid}-`) && f.endsWith(".cpuprofile"));
    if (file) {
      const named = path.join(dir, `${name}.cpuprofile`);
      renameSync(path.join(dir, file), named);
      return named;
    }
    await sleep(200);
  }
  throw new Error(`no profile from pid ${pid} in ${dir}`);
}

async function profileTarget(
  name: string,
  target: Target,
  requestPath: string,
  options: { connections: number; seconds: number; dir: string; headers: Record<string, string> },
): Promise<void> {
  const load = (duration: number) =>
    autocannon({
      url: target.url + requestPath,
      connections: options.connections,
      duration,
      headers: options.headers,
    });
  await load(5);
  const pid = target.serverPid();
  process.kill(pid, "SIGUSR2");
  await sleep(200);
  const before = treeCpuSeconds(pid);
  const result = await load(options.seconds);
  const cpu = treeCpuSeconds(pid) - before;
  process.kill(pid, "SIGUSR2");
  if (result.non2xx > 0) throw new Error(`${name}: ${result.non2xx} non-2xx answers`);
  const file = await awaitProfile(options.dir, pid, name);
  const ok = result["2xx"];
  console.log(
    `${name}: ${requestPath} at c${options.connections}, ${options.seconds} s: ${ok} requests, ` +
      `${(ok / result.duration).toFixed(0)} req/s, server CPU ${((cpu / ok) * 1e6).toFixed(0)} µs per request ` +
      `(utime + stime); profile ${file}`,
  );
}

async function main() {
  const { values } = parseArgs({
    options: {
      "database-url": { type: "string" },
      scenario: { type: "string", default: "profile" },
      connections: { type: "string", default: "32" },
      seconds: { type: "string", default: "15" },
      target: { type: "string", default: "product" },
      port: { type: "string", default: "4570" },
      out: { type: "string" },
    },
  });
  const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
  if (!databaseUrl) throw new Error("set --database-url or DATABASE_URL");
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  const data = await pickBenchData(pool);
  await pool.end();
  const paths: Record<string, string> = {
    profile: `/api/v1/players/${data.whale.id}`,
    "small-first-page": `/api/v1/players/${data.small.id}/transactions?limit=20`,
    portfolio: `/api/v1/portfolio?manager=${encodeURIComponent(BENCH_BOOK_MANAGER)}`,
  };
  const requestPath = paths[values.scenario];
  if (!requestPath) throw new Error(`--scenario: one of ${Object.keys(paths).join(", ")}`);
  const dir = values.out ?? mkdtempSync(path.join(tmpdir(), "cpu-profile-"));
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  const options = {
    connections: Number(values.connections),
    seconds: Number(values.seconds),
    dir,
    // The portfolio is a VIP manager's read: their own book, as the bench's scenario asks it.
    headers:
      values.scenario === "portfolio" ? await benchManagerHeaders(BENCH_BOOK_MANAGER) : await benchHeaders(),
  };
  const names = values.target === "both" ? ["product", "floor"] : [values.target];
  for (const name of names) {
    const port = Number(values.port) + (name === "floor" ? 1 : 0);
    const target = await startTarget(name, port, databaseUrl, dir);
    try {
      await profileTarget(name, target, requestPath, options);
    } finally {
      await target.stop();
    }
  }
}

await main();
