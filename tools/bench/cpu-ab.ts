/*
 * Interleaved A/B rounds of the cheap reads: CPU time per request of each server's process tree (utime + stime
 * from /proc, before and after a fixed number of requests) and req/s, for two builds of the product and the
 * floor app, in ABBA order. CPU per request is much less sensitive to other load on a shared machine than
 * req/s; the medians of both are printed.
 *
 *   node --import tsx tools/bench/cpu-ab.ts --database-url postgresql://… --a .next-base --b .next \
 *     --rounds 4 --port 4540 [--floor-port 4542] [--requests 1500]
 */
import { type ChildProcess, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import { httpGet, isFailure, startApp } from "./app-process.ts";
import { floorStartCommand } from "./floor-app/floor-server.ts";
import { parentMap, processTree } from "./process-rss.ts";

const HEADERS = { authorization: "Bearer bench", "x-session-id": "bench" };
const PATHS: Record<string, string> = {
  profile: "/api/v1/players/P000007",
  "small-first-page": "/api/v1/players/P000304/transactions?limit=20",
};
const TICKS_PER_S = 100;

function treeCpuTicks(root: number): number {
  let ticks = 0;
  for (const pid of processTree(root, parentMap())) {
    try {
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
      // utime and stime are fields 14 and 15 of /proc/<pid>/stat (12 and 13 after the command name).
      ticks += Number(fields[11]) + Number(fields[12]);
    } catch {
      // gone
    }
  }
  return ticks;
}

interface Server {
  name: string;
  url: string;
  cpuRoot: () => number;
  stop: () => Promise<unknown>;
}

async function startProduct(name: string, dist: string, port: number, databaseUrl: string): Promise<Server> {
  process.env.NEXT_DIST_DIR = dist;
  const app = await startApp(port, {
    DATABASE_URL: databaseUrl,
    AUTH_MODE: "demo",
    RATE_LIMIT_MAX: "1000000000",
    LOG_LEVEL: "warn",
  });
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
  await run(server.url + path, connections, Math.max(100, amount / 5));
  const root = server.cpuRoot();
  const before = treeCpuTicks(root);
  const result = await run(server.url + path, connections, amount);
  const cpu = treeCpuTicks(root) - before;
  const done = result["2xx"];
  if (result.non2xx > 0) throw new Error(`${server.name} ${path}: ${result.non2xx} non-2xx answers`);
  return { usPerReq: (cpu / TICKS_PER_S / done) * 1e6, rps: done / result.duration };
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
      rounds: { type: "string", default: "4" },
      port: { type: "string", default: "4540" },
      "floor-port": { type: "string", default: "4542" },
      requests: { type: "string", default: "1500" },
      scenarios: { type: "string", default: "profile,small-first-page" },
    },
  });
  const databaseUrl = values["database-url"] ?? "";
  const port = Number(values.port);
  const amount = Number(values.requests);
  const servers = [
    await startProduct("A", values.a, port, databaseUrl),
    await startProduct("B", values.b, port + 3, databaseUrl),
    await startFloor(Number(values["floor-port"]), databaseUrl),
  ];
  const results = new Map<string, { us: number[]; rps: number[] }>();
  try {
    for (let round = 0; round < Number(values.rounds); round++) {
      // ABBA: every other round runs the servers in the reverse order.
      const order = round % 2 === 0 ? servers : [...servers].reverse();
      for (const scenario of values.scenarios.split(",")) {
        for (const c of [1, 32]) {
          for (const server of order) {
            const m = await measure(server, PATHS[scenario] as string, c, c === 1 ? amount / 2 : amount);
            const key = `${scenario} c${c} ${server.name}`;
            const entry = results.get(key) ?? { us: [], rps: [] };
            entry.us.push(m.usPerReq);
            entry.rps.push(m.rps);
            results.set(key, entry);
            console.log(
              `round ${round + 1} ${key}: ${m.usPerReq.toFixed(0)} µs/req, ${m.rps.toFixed(0)} req/s`,
            );
          }
        }
      }
    }
  } finally {
    await Promise.allSettled(servers.map((s) => s.stop()));
  }
  console.log(
    "\n| scenario | c | A µs/req | B µs/req | floor µs/req | A req/s | B req/s | floor req/s | A/floor | B/floor | B/A CPU |",
  );
  console.log("|---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|");
  for (const scenario of values.scenarios.split(",")) {
    for (const c of [1, 32]) {
      const get = (n: string) => results.get(`${scenario} c${c} ${n}`) ?? { us: [0], rps: [0] };
      const [a, b, f] = [get("A"), get("B"), get("floor")];
      const ratio = (x: typeof a) => median(x.rps.map((r, i) => r / (f.rps[i] as number)));
      console.log(
        `| ${scenario} | ${c} | ${median(a.us).toFixed(0)} | ${median(b.us).toFixed(0)} | ${median(f.us).toFixed(0)} | ${median(a.rps).toFixed(0)} | ${median(b.rps).toFixed(0)} | ${median(f.rps).toFixed(0)} | ${ratio(a).toFixed(2)}× | ${ratio(b).toFixed(2)}× | ${(median(b.us) / median(a.us)).toFixed(2)} |`,
      );
    }
  }
}

await main();
