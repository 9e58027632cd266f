/*
 * npm run bench:curve -- --database-url URL --label 10M [--samples 300] [--cold-rounds 5] [--port 3350]
 *   [--generate-seconds S] [--out FILE]
 * One point of the size curve (issue 25; docs/scale-out.md "Toward a billion transactions"): the database's table
 * and index sizes, and every bench scenario's latency at concurrency 1 against the production build, warm
 * (`--samples` requests in a row after 2 s of warm-up) and cold (`--cold-rounds` rounds, each after a restart of the
 * PostgreSQL cluster and an emptied OS page cache: the first request of each scenario in that round). Appends the
 * point as one JSON line to --out (default bench-results/size-curve.ndjson); `--plot` draws the curve from it.
 * Restarting the cluster drops every connection to it: run it where nothing else uses that cluster.
 */
import { execFileSync } from "node:child_process";
import { appendFileSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { commandArgs } from "../command-args.ts";
import { BENCH_BOOK_MANAGER } from "../data/generate-dataset.ts";
import { median } from "../median.ts";
import { runMain } from "../run-main.ts";
import { type AppProcess, httpGet, isFailure, startApp } from "./app-process.ts";
import { pickBenchData } from "./pick-bench-data.ts";
import { benchHeaders, benchManagerHeaders, productBenchEnv } from "./product-posture.ts";
import { cursorAtDepth, scenarioPaths } from "./scenario-paths.ts";
import { SCENARIO_NAMES, type ScenarioName } from "./scenarios.ts";
import { plotCurve } from "./size-curve-plot.ts";

export interface CurvePoint {
  label: string;
  transactions: number;
  players: number;
  generateSeconds: number | null;
  sizes: { table: string; heapBytes: number; indexBytes: number }[];
  scenarios: { name: ScenarioName; warm: { p50: number; p99: number }; cold: { p50: number; p99: number } }[];
}

const say = (line: string) => console.log(line);
const p99 = (xs: number[]) =>
  [...xs].sort((a, b) => a - b)[Math.max(0, Math.ceil(xs.length * 0.99) - 1)] ?? 0;

async function tableSizes(pool: pg.Pool) {
  const { rows } = await pool.query<{ table: string; heap: string; index: string }>(`
    SELECT c.relname AS table, pg_table_size(c.oid) AS heap, pg_indexes_size(c.oid) AS index
    FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
    WHERE n.nspname = 'public' AND c.relkind = 'r'
      AND c.relname IN ('players', 'transactions', 'transaction_daily_stats', 'audit_events', 'changes')
    ORDER BY pg_total_relation_size(c.oid) DESC`);
  return rows.map((r) => ({ table: r.table, heapBytes: Number(r.heap), indexBytes: Number(r.index) }));
}

/** The cluster serving `databaseUrl` restarted and the OS page cache emptied: the next reads come from disk. */
async function makeCold(app: AppProcess, headers: Record<string, string>, clusterPort: number) {
  const cluster = execFileSync("pg_lsclusters", ["-h"], { encoding: "utf8" })
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .find((f) => f[2] === String(clusterPort));
  if (!cluster) throw new Error(`no PostgreSQL cluster on port ${clusterPort} (pg_lsclusters)`);
  execFileSync("pg_ctlcluster", ["--skip-systemctl-redirect", cluster[0] ?? "", cluster[1] ?? "", "restart"]);
  execFileSync("sh", ["-c", "sync && echo 3 > /proc/sys/vm/drop_caches"]);
  // The app's pooled connections died with the server: an unknown player's profile (one index probe) makes the
  // pool connect again before anything is measured.
  for (let i = 0; i < 50; i++) {
    const res = await httpGet(`${app.url}/api/v1/players/CURVE-NOBODY`, headers, 10_000);
    if (!isFailure(res) && res.status === 404) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error("the app did not reach the restarted database");
}

/** Requests for WARM_UP_MS (as `npm run bench` warms up: JIT, the pool, the pages), at most `max` of them. */
async function warmUp(url: string, headers: Record<string, string>, max: number) {
  const until = performance.now() + WARM_UP_MS;
  for (let i = 0; i < max && performance.now() < until; i++) await timed(url, headers);
}

const WARM_UP_MS = 2_000;

async function timed(url: string, headers: Record<string, string>): Promise<number> {
  const start = performance.now();
  const res = await httpGet(url, headers, 600_000);
  if (isFailure(res) || res.status !== 200)
    throw new Error(`${url}: ${isFailure(res) ? res.error : res.status}`);
  return performance.now() - start;
}

const HELP = `usage: npm run bench:curve -- --database-url URL --label L [--samples N] [--cold-rounds N] [--port P]
         [--generate-seconds S] [--out FILE]
       npm run bench:curve -- --plot [--out FILE]   (the curve so far as docs-ready Markdown and SVG)`;

async function main(): Promise<number> {
  const values = commandArgs("bench:curve", HELP, {
    "database-url": { type: "string" },
    label: { type: "string" },
    samples: { type: "string", default: "300" },
    "cold-rounds": { type: "string", default: "5" },
    port: { type: "string", default: "3350" },
    "generate-seconds": { type: "string" },
    out: { type: "string", default: "bench-results/size-curve.ndjson" },
    plot: { type: "boolean", default: false },
  });
  const out = values.out;
  if (values.plot) {
    writePlot(out);
    return 0;
  }
  const databaseUrl = values["database-url"] ?? process.env.DATABASE_URL;
  const label = values.label;
  if (!databaseUrl || !label) throw new Error("--database-url and --label are required");
  const clusterPort = Number(new URL(databaseUrl).port || 5432);
  const samples = Number(values.samples);
  const coldRounds = Number(values["cold-rounds"]);
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 2 });
  const data = await pickBenchData(pool);
  const counts = await pool.query<{ t: string; p: string }>(
    "SELECT (SELECT count(*) FROM transactions) AS t, (SELECT count(*) FROM players) AS p",
  );
  const sizes = await tableSizes(pool);
  await pool.end();
  const app = await startApp(Number(values.port), productBenchEnv(databaseUrl));
  try {
    const agent = await benchHeaders();
    const manager = await benchManagerHeaders(BENCH_BOOK_MANAGER);
    const cursor = await cursorAtDepth(app.url, data, agent);
    const urls = SCENARIO_NAMES.flatMap((name) => {
      const paths = scenarioPaths(name, data, cursor);
      return typeof paths === "string" ? [] : [{ name, url: `${app.url}${paths.product}` }];
    });
    const headersOf = (name: ScenarioName) => (name === "portfolio" ? manager : agent);
    const warm = new Map<ScenarioName, number[]>();
    for (const { name, url } of urls) {
      const n = name === "export-csv" ? 3 : samples;
      await warmUp(url, headersOf(name), name === "export-csv" ? 1 : n);
      const xs: number[] = [];
      for (let i = 0; i < n; i++) xs.push(await timed(url, headersOf(name)));
      warm.set(name, xs);
      say(`${label} warm ${name}: p50 ${median(xs).toFixed(1)} ms, p99 ${p99(xs).toFixed(1)} ms`);
    }
    const cold = new Map<ScenarioName, number[]>();
    for (let round = 0; round < coldRounds; round++) {
      await makeCold(app, agent, clusterPort);
      for (const { name, url } of urls) {
        cold.set(name, [...(cold.get(name) ?? []), await timed(url, headersOf(name))]);
      }
      say(`${label} cold round ${round + 1}/${coldRounds} done`);
    }
    const point: CurvePoint = {
      label,
      transactions: Number(counts.rows[0]?.t),
      players: Number(counts.rows[0]?.p),
      generateSeconds: values["generate-seconds"] ? Number(values["generate-seconds"]) : null,
      sizes,
      scenarios: urls.map(({ name }) => {
        const w = warm.get(name) ?? [];
        const c = cold.get(name) ?? [];
        return { name, warm: { p50: median(w), p99: p99(w) }, cold: { p50: median(c), p99: p99(c) } };
      }),
    };
    mkdirSync(path.dirname(out), { recursive: true });
    appendFileSync(out, `${JSON.stringify(point)}\n`);
    say(`${label}: appended to ${out}`);
  } finally {
    await app.stop();
  }
  return 0;
}

/** The curve as a table (Markdown) and a plot (SVG) beside the points. */
function writePlot(out: string) {
  const { markdown, svg } = plotCurve(out);
  const base = out.replace(/\.ndjson$/, "");
  writeFileSync(`${base}.md`, markdown);
  writeFileSync(`${base}.svg`, svg);
  say(markdown);
  say(`wrote ${base}.md and ${base}.svg`);
}

runMain(import.meta.url, main);
