/*
 * A CPU profile of a cheap read under load, charged to layers (profile-layers.ts): the product as the benchmark
 * runs it (production build, deployment posture: product-posture.ts), or the floor app, or both one after the
 * other. V8's sampling profiler runs in the Next.js server process only, from after a warm-up to the end of the
 * measured load (profile-hook.cjs); the server's CPU time per request is read from /proc over the same window.
 *
 *   node --import tsx tools/bench/cpu-profile.ts --database-url postgresql://… [--scenario profile]
 *     [--connections 32] [--seconds 15] [--target product|floor|both] [--port 4570] [--out DIR]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";
import { httpGet, isFailure, startApp } from "./app-process.ts";
import { ensureFloorBuild, floorStartCommand } from "./floor-app/floor-server.ts";
import { pickBenchData } from "./pick-bench-data.ts";
import { treeCpuSeconds } from "./process-rss.ts";
import { benchHeaders, productBenchEnv } from "./product-posture.ts";
import {
  type CpuProfile,
  formatComparison,
  formatSummary,
  type ProfileSummary,
  sourceMapResolver,
  summarizeProfile,
} from "./profile-layers.ts";

const REPO = fileURLToPath(new URL("../..", import.meta.url));
const HOOK = fileURLToPath(new URL("./profile-hook.cjs", import.meta.url));

interface Target {
  name: string;
  url: string;
  /** The Next.js server process: the one the hook profiles. */
  serverPid: () => number;
  stop: () => Promise<unknown>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function startProduct(port: number, databaseUrl: string, profileDir: string): Promise<Target> {
  const app = await startApp(
    port,
    { ...productBenchEnv(databaseUrl), NODE_OPTIONS: `--require ${HOOK}`, PROFILE_DIR: profileDir },
    { stdoutFile: path.join(profileDir, "product-stdout.log") },
  );
  return {
    name: "product",
    url: app.url,
    serverPid: () => app.serverPid() ?? app.pid,
    stop: () => app.stop(15_000),
  };
}

async function startFloor(port: number, databaseUrl: string, profileDir: string): Promise<Target> {
  ensureFloorBuild(false, console.log);
  const command = floorStartCommand(port, databaseUrl);
  const env = {
    ...command.env,
    NODE_OPTIONS: `${command.env.NODE_OPTIONS ?? ""} --require ${HOOK}`.trim(),
    PROFILE_DIR: profileDir,
  };
  const child: ChildProcess = spawn(process.execPath, command.args, { env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    if (child.exitCode !== null) throw new Error(`the floor exited during start (port ${port} in use?)`);
    const res = await httpGet(`${url}/api/health`, {}, 2_000);
    if (!isFailure(res) && res.status === 200) break;
    if (i > 150) throw new Error("the floor did not start");
    await sleep(200);
  }
  return { name: "floor", url, serverPid: () => child.pid ?? 0, stop: async () => child.kill("SIGTERM") };
}

/** Waits for the profile the hook writes after the second SIGUSR2. */
async function awaitProfile(dir: string, pid: number): Promise<CpuProfile> {
  for (let i = 0; i < 100; i++) {
    const file = readdirSync(dir).find((f) => f.startsWith(`server-${pid}-`) && f.endsWith(".cpuprofile"));
    if (file) return JSON.parse(readFileSync(path.join(dir, file), "utf8")) as CpuProfile;
    await sleep(200);
  }
  throw new Error(`no profile from pid ${pid} in ${dir}`);
}

interface Profiled {
  name: string;
  summary: ProfileSummary;
  requests: number;
  cpuUsPerRequest: number;
  report: string;
}

async function profileTarget(
  target: Target,
  requestPath: string,
  headers: Record<string, string>,
  options: { connections: number; seconds: number; dir: string },
): Promise<Profiled> {
  const load = (duration: number) =>
    autocannon({ url: target.url + requestPath, connections: options.connections, duration, headers });
  await load(5);
  const pid = target.serverPid();
  process.kill(pid, "SIGUSR2");
  await sleep(200);
  const before = treeCpuSeconds(pid);
  const result = await load(options.seconds);
  const cpu = treeCpuSeconds(pid) - before;
  process.kill(pid, "SIGUSR2");
  if (result.non2xx > 0) throw new Error(`${target.name}: ${result.non2xx} non-2xx answers`);
  const profile = await awaitProfile(options.dir, pid);
  writeFileSync(path.join(options.dir, `${target.name}.cpuprofile`), JSON.stringify(profile));
  const perRequestFile = path.join(options.dir, `${target.name}.json`);
  const summary = summarizeProfile(profile, sourceMapResolver(REPO));
  const perRequest = (cpu / result["2xx"]) * 1e6;
  writeFileSync(
    perRequestFile,
    JSON.stringify({ path: requestPath, requests: result["2xx"], cpuUsPerRequest: perRequest }),
  );
  const report = [
    `## ${target.name}: ${requestPath} at c${options.connections}, ${options.seconds} s`,
    "",
    `${result["2xx"]} requests, ${(result["2xx"] / result.duration).toFixed(0)} req/s, server CPU ${perRequest.toFixed(0)} µs per request (utime + stime)`,
    "",
    formatSummary(summary),
    "",
  ].join("\n");
  return { name: target.name, summary, requests: result["2xx"], cpuUsPerRequest: perRequest, report };
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
  };
  const requestPath = paths[values.scenario];
  if (!requestPath) throw new Error(`--scenario: one of ${Object.keys(paths).join(", ")}`);
  const dir = values.out ?? mkdtempSync(path.join(tmpdir(), "cpu-profile-"));
  if (!existsSync(dir)) mkdirSync(dir, { recursive: true });
  const headers = await benchHeaders();
  const options = { connections: Number(values.connections), seconds: Number(values.seconds), dir };
  const names = values.target === "both" ? ["product", "floor"] : [values.target];
  const profiled: Profiled[] = [];
  for (const name of names) {
    const port = Number(values.port) + (name === "floor" ? 1 : 0);
    const target =
      name === "floor"
        ? await startFloor(port, databaseUrl, dir)
        : await startProduct(port, databaseUrl, dir);
    try {
      const result = await profileTarget(target, requestPath, headers, options);
      profiled.push(result);
      console.log(result.report);
    } finally {
      await target.stop();
    }
  }
  const [product, floor] = profiled;
  if (product && floor)
    console.log(`## Where the product spends more than the floor\n\n${formatComparison(product, floor)}\n`);
  console.log(`profiles in ${dir} (open a .cpuprofile in Chrome's DevTools, Performance panel)`);
}

await main();
