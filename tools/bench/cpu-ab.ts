/*
 * Interleaved A/B rounds of the cheap reads: CPU time per request of each server's process tree (utime + stime
 * from /proc, before and after a fixed number of requests) and req/s, for two builds of the product and the
 * floor app, in rotating order (each after 2 s of unmeasured warm-up). CPU per request is much less sensitive to other load on a shared machine than
 * req/s; the medians of both are printed.
 *
 *   node --import tsx tools/bench/cpu-ab.ts --database-url postgresql://… --a .next-base --b .next \
 *     --rounds 6 --port 4540 [--floor-port 4542] [--requests 1500] [--a-env K=V,…] [--b-env K=V,…]
 *
 * Both products run in the benchmark's deployment posture (product-posture.ts); `--a-env` / `--b-env` change
 * single settings of one side, to measure what a setting costs with the same build on both sides.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { httpGet, isFailure, startApp } from "./app-process.ts";
import { ensureFloorBuild, floorStartCommand } from "./floor-app/floor-server.ts";
import { cpuSecondsBetween, namedCpuTicks, treeCpuSeconds } from "./process-rss.ts";
import { benchHeaders, productBenchEnv } from "./product-posture.ts";
import { rotate } from "./report.ts";

let HEADERS: Record<string, string> = {};
const PATHS: Record<string, string> = {
  profile: "/api/v1/players/P000007",
  "small-first-page": "/api/v1/players/P000304/transactions?limit=20",
};
interface Server {
  name: string;
  url: string;
  cpuRoot: () => number;
  stop: () => Promise<unknown>;
}

/** `K=V,K=V` → settings; `K=` leaves K out of the posture. */
function envList(text: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const pair of (text ?? "").split(",").filter(Boolean)) {
    const at = pair.indexOf("=");
    if (at < 1) throw new Error(`not K=V: ${pair}`);
    out[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return out;
}

async function startProduct(
  name: string,
  dist: string,
  port: number,
  databaseUrl: string,
  extraEnv: Record<string, string>,
  logDir: string,
): Promise<Server> {
  process.env.NEXT_DIST_DIR = dist;
  const app = await startApp(
    port,
    Object.fromEntries(
      Object.entries({ ...productBenchEnv(databaseUrl), ...extraEnv }).filter(([, value]) => value !== ""),
    ),
    { stdoutFile: path.join(logDir, `product-${name}.log`) },
  );
  return { name, url: app.url, cpuRoot: () => app.serverPid() ?? app.pid, stop: () => app.stop(15_000) };
}

async function startFloor(port: number, databaseUrl: string): Promise<Server> {
  const command = floorStartCommand(port, databaseUrl);
  const child: ChildProcess = spawn(process.execPath, command.args, { env: command.env, stdio: "ignore" });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; ; i++) {
    // A server left on the port would answer in its place (and its CPU would not be counted).
    if (child.exitCode !== null) throw new Error(`the floor exited during start (port ${port} in use?)`);
    const res = await httpGet(`${url}/api/health`, {}, 2_000);
    if (!isFailure(res) && res.status === 200) break;
    if (i > 150) throw new Error("the floor did not start");
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    name: "floor",
    url,
    cpuRoot: () => child.pid ?? 0,
    stop: async () => {
      child.kill("SIGTERM");
    },
  };
}

async function run(url: string, connections: number, amount: number) {
  return autocannon({ url, connections, amount, headers: HEADERS, sampleInt: 50 });
}

async function measure(server: Server, path: string, connections: number, amount: number) {
  await autocannon({ url: server.url + path, connections, duration: 2, headers: HEADERS });
  const root = server.cpuRoot();
  const before = { server: treeCpuSeconds(root), db: namedCpuTicks("postgres") };
  const result = await run(server.url + path, connections, amount);
  // The audit rows of the last requests are written within the flush interval (250 ms): count them here.
  await new Promise((r) => setTimeout(r, 400));
  const cpu = treeCpuSeconds(root) - before.server;
  const db = cpuSecondsBetween(before.db, namedCpuTicks("postgres"));
  const done = result["2xx"];
  if (result.non2xx > 0) throw new Error(`${server.name} ${path}: ${result.non2xx} non-2xx answers`);
  return { usPerReq: (cpu / done) * 1e6, dbUsPerReq: (db / done) * 1e6, rps: done / result.duration };
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
};

async function main() {
  const { values } = parseArgs({
    options: {
      "database-url": { type: "string" },
      a: { type: "string", default: ".next-base" },
      b: { type: "string", default: ".next" },
      rounds: { type: "string", default: "6" },
      port: { type: "string", default: "4540" },
      "floor-port": { type: "string", default: "4542" },
      requests: { type: "string", default: "1500" },
      scenarios: { type: "string", default: "profile,small-first-page" },
      "a-env": { type: "string" },
      "b-env": { type: "string" },
    },
  });
  const databaseUrl = values["database-url"] ?? "";
  const port = Number(values.port);
  const amount = Number(values.requests);
  ensureFloorBuild(false, console.log);
  HEADERS = await benchHeaders();
  const logDir = mkdtempSync(path.join(tmpdir(), "cpu-ab-"));
  console.log(`product logs in ${logDir}`);
  const servers: Server[] = [];
  const results = new Map<string, { us: number[]; db: number[]; rps: number[] }>();
  try {
    servers.push(await startProduct("A", values.a, port, databaseUrl, envList(values["a-env"]), logDir));
    servers.push(await startProduct("B", values.b, port + 3, databaseUrl, envList(values["b-env"]), logDir));
    servers.push(await startFloor(Number(values["floor-port"]), databaseUrl));
    for (let round = 0; round < Number(values.rounds); round++) {
      // The order rotates (A B floor, B floor A, floor A B): each server waits as long between its runs as the
      // others do. One that has idled longer is slower for a while (run-bench.ts), so no order may favour one.
      const order = rotate(servers, round);
      for (const scenario of values.scenarios.split(",")) {
        for (const c of [1, 32]) {
          for (const server of order) {
            const m = await measure(server, PATHS[scenario] as string, c, c === 1 ? amount / 2 : amount);
            const key = `${scenario} c${c} ${server.name}`;
            const entry = results.get(key) ?? { us: [], db: [], rps: [] };
            entry.us.push(m.usPerReq);
            entry.db.push(m.dbUsPerReq);
            entry.rps.push(m.rps);
            results.set(key, entry);
            console.log(
              `round ${round + 1} ${key}: ${m.usPerReq.toFixed(0)} µs/req, PostgreSQL ${m.dbUsPerReq.toFixed(0)} µs/req, ${m.rps.toFixed(0)} req/s`,
            );
          }
        }
      }
    }
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
  console.log(
    "\nµs/req: the server's process tree (utime + stime); PostgreSQL: all its processes over the same run, per request.",
  );
  console.log(
    "\n| scenario | c | A µs/req | B µs/req | floor µs/req | A PostgreSQL | B PostgreSQL | floor PostgreSQL | A req/s | B req/s | floor req/s | A/floor | B/floor | B/A CPU |",
  );
  console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const scenario of values.scenarios.split(",")) {
    for (const c of [1, 32]) {
      const get = (n: string) => results.get(`${scenario} c${c} ${n}`) ?? { us: [0], db: [0], rps: [0] };
      const [a, b, f] = [get("A"), get("B"), get("floor")];
      const ratio = (x: typeof a) => median(x.rps.map((r, i) => r / (f.rps[i] as number)));
      const us = (xs: number[]) => median(xs).toFixed(0);
      console.log(
        `| ${scenario} | ${c} | ${us(a.us)} | ${us(b.us)} | ${us(f.us)} | ${us(a.db)} | ${us(b.db)} | ${us(f.db)} | ${us(a.rps)} | ${us(b.rps)} | ${us(f.rps)} | ${ratio(a).toFixed(2)}× | ${ratio(b).toFixed(2)}× | ${(median(b.us) / median(a.us)).toFixed(2)} |`,
      );
    }
  }
}

await main();
