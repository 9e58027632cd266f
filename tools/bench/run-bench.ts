/*
 * `npm run bench`: the product (production build, `npm start`) against a minimal node:http + pg baseline
 * on the same database, machine and moment, per scenario at concurrency 1 and 32 (autocannon); the cheap
 * scenarios also against the floor (tools/bench/floor-app: a minimal Next.js app doing the same Prisma reads). Prints a
 * table, writes it as Markdown + JSON (bench-results/ or --out) and ends with one `SUMMARY PASS|FAIL` line.
 *
 *   npm run bench -- --database-url postgresql://postgres@127.0.0.1:5432/pdata_gen [--duration 8] [--scenarios a,b]
 *
 * The product runs as deployed (product-posture.ts): verified tokens (AUTH_MODE=jwt), the access log at its
 * default level (to a file beside the results), a rate limit far above the load (the limiter stays in the
 * request path) and its audit rows written to the database.
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import autocannon from "autocannon";
import pg from "pg";
import { compiledScriptsPresent } from "../../scripts/compiled-scripts.mjs";
import {
  type AppProcess,
  type HelperServer,
  httpGet,
  isFailure,
  startApp,
  startHelperServer,
} from "../../test/support/app-process.ts";
import { startRssSampler, treeCpuSeconds } from "../../test/support/process-rss.ts";
import { BENCH_BOOK_MANAGER } from "../data/generate-dataset.ts";
import { type BenchArgs, parseBenchArgs } from "./args.ts";
import { type BulkCopyResult, bulkLine, copyAllTransactions, withBulk } from "./bulk-copy.ts";
import { ensureFloorBuild, floorStartCommand } from "./floor-app/floor-server.ts";
import { type BenchData, pickBenchData } from "./pick-bench-data.ts";
import { benchBulkHeaders, benchHeaders, benchManagerHeaders, productBenchEnv } from "./product-posture.ts";
import {
  combineRounds,
  formatTable,
  type Measurement,
  memoryLine,
  progressLine,
  type ResultRow,
  rotate,
  roundRatios,
  summaryLine,
  TARGETS,
} from "./report.ts";
import { cursorAtDepth, type ScenarioPaths, scenarioPaths } from "./scenario-paths.ts";
import { CONCURRENCIES, hasFloor, type ScenarioName } from "./scenarios.ts";

/** The product's request headers (a verified token bound to its session); set when the run starts. */
let HEADERS: Record<string, string> = {};
const EXPORT_TIMEOUT_S = 600;
/** Seconds of load before each measured run of a page scenario, not counted. */
const WARM_UP_S = 2;

const say = (line: string) => console.log(line);
const redact = (url: string) => url.replace(/\/\/([^:@/]+):[^@/]*@/, "//$1:***@");

function ensureBuild(force: boolean): void {
  const dist = process.env.NEXT_DIST_DIR ?? ".next";
  if (!force && existsSync(path.join(dist, "BUILD_ID")) && compiledScriptsPresent(process.cwd())) return;
  say(`building the product (npm run build → ${dist}) …`);
  const { status } = spawnSync("npm", ["run", "build"], {
    stdio: "inherit",
    env: { ...process.env, NEXT_TELEMETRY_DISABLED: "1" },
  });
  if (status !== 0) throw new Error(`npm run build failed (exit ${status})`);
}

const startBaseline = (databaseUrl: string, port: number) =>
  startHelperServer(
    "baseline",
    {
      args: ["--import", "tsx", "tools/bench/baseline-server.ts", "--port", String(port)],
      env: { ...process.env, DATABASE_URL: databaseUrl },
    },
    port,
    "/health",
  );

const startFloor = (databaseUrl: string, port: number) =>
  startHelperServer("floor app", floorStartCommand(port, databaseUrl), port, "/api/health");

function cannon(
  url: string,
  connections: number,
  opts: { duration?: number; amount?: number; timeout?: number },
) {
  return autocannon({
    url,
    // autocannon refuses more connections than requests.
    connections: opts.amount ? Math.min(connections, opts.amount) : connections,
    headers: HEADERS,
    timeout: opts.timeout ?? 30,
    // autocannon ends a run on its sampling tick (1 s by default): for a handful of exports that rounded the wall
    // time, and so req/s, to whole seconds (both sides showed 1.00 req/s). A 50 ms tick keeps the rounding small.
    ...(opts.amount ? { amount: opts.amount, sampleInt: 50 } : { duration: opts.duration ?? 8 }),
  });
}

function toMeasurement(r: autocannon.Result): Measurement {
  const statuses: Record<string, number> = {};
  for (const [code, stat] of Object.entries(r.statusCodeStats ?? {})) statuses[code] = stat.count ?? 0;
  const completed = r["1xx"] + r["2xx"] + r["3xx"] + r["4xx"] + r["5xx"];
  return {
    // Completed responses over the run's wall time (autocannon's per-second mean is coarse for slow requests).
    rps: r.duration > 0 ? completed / r.duration : 0,
    p50: r.latency.p50,
    p99: r.latency.p99,
    requests: completed,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
  };
}

/**
 * One measured run: autocannon's figures and the server's CPU time per completed request (its process tree,
 * read from /proc before and after, and once more after a pause that lets the product write the audit rows
 * of its last requests, which it batches every 250 ms).
 */
async function measureSide(
  url: string,
  connections: number,
  opts: Parameters<typeof cannon>[2],
  pid: number | undefined,
): Promise<Measurement> {
  const before = pid ? treeCpuSeconds(pid) : 0;
  const measurement = toMeasurement(await cannon(url, connections, opts));
  if (!pid || measurement.requests === 0) return measurement;
  await new Promise((r) => setTimeout(r, 300));
  const cpu = treeCpuSeconds(pid) - before;
  return { ...measurement, cpuUsPerRequest: (cpu / measurement.requests) * 1e6 };
}

/** One request before measuring: null when it answers 200, else a short reason (the body is printed). */
async function probe(side: string, base: string, p: string): Promise<string | null> {
  const res = await httpGet(`${base}${p}`, HEADERS, EXPORT_TIMEOUT_S * 1000);
  if (isFailure(res)) return `socket error ${res.error}`;
  if (res.status === 200) return null;
  say(`  ${side} GET ${p} → ${res.status}: ${res.body.slice(0, 300).replace(/\s+/g, " ")}`);
  return `HTTP ${res.status}`;
}

export async function runBench(
  args: BenchArgs,
): Promise<{ rows: ResultRow[]; peakRssMiB: number | null; summary: string }> {
  ensureBuild(args.build);
  const withFloor = args.scenarios.some(hasFloor);
  if (withFloor) ensureFloorBuild(args.build, say);
  const data = await pickData(args);
  const servers: Servers = {};
  const stopAll = async () => {
    await Promise.allSettled([servers.app?.stop(15_000), servers.baseline?.stop(), servers.floor?.stop()]);
  };
  const untrap = stopOnSignal(stopAll);

  const stamp = new Date().toISOString().replace(/[:.]/g, "-").slice(0, 19);
  const out = args.out ?? path.join("bench-results", `bench-${stamp}.md`);
  mkdirSync(path.dirname(out), { recursive: true });
  const productLog = `${out.replace(/\.md$/, "")}.product.log`;
  const agentHeaders = await benchHeaders();
  const managerHeaders = await benchManagerHeaders(BENCH_BOOK_MANAGER);
  HEADERS = agentHeaders;

  try {
    const { app, baseline, floor } = await startServers(args, withFloor, productLog, servers);
    const samplers = startSamplers(app, floor);
    const cursor = args.scenarios.includes("whale-cursor")
      ? await cursorAtDepth(app.url, data, HEADERS)
      : null;
    const headers = { agentHeaders, managerHeaders };
    const pages = args.scenarios.filter((s) => s !== "bulk");
    const rows = await runScenarios(
      { ...args, scenarios: pages },
      data,
      cursor,
      { app, baseline, floor },
      samplers.rss,
      headers,
    );
    const bulk = args.scenarios.includes("bulk") ? await measureBulk(app.url, args.bulkRows) : null;
    return finish({ args, data, rows, bulk, out, productLog }, samplers);
  } finally {
    await stopAll();
    untrap();
  }
}

interface Servers {
  app?: AppProcess;
  baseline?: HelperServer;
  floor?: HelperServer;
}
type RssSampler = ReturnType<typeof startRssSampler>;

type RunningServers = { app: AppProcess; baseline: HelperServer; floor: HelperServer | undefined };

/** Peak-memory samplers: the product (launcher and server), the server alone, the floor. */
function startSamplers(app: AppProcess, floor: HelperServer | undefined) {
  const rss = startRssSampler(app.pid);
  // The Next.js server alone (the launcher's child), to tell its share from the launcher's.
  const serverPid = app.serverPid();
  const serverRss = serverPid ? startRssSampler(serverPid) : null;
  const floorPid = floor?.child.pid;
  const floorRss = floorPid ? startRssSampler(floorPid) : null;
  return { rss, serverRss, floorRss };
}

/** Every scenario asked for, in order: its rows, or rows noting why it was skipped. */
async function runScenarios(
  args: BenchArgs,
  data: BenchData,
  cursor: string | null,
  servers: RunningServers,
  rss: RssSampler,
  headers: { agentHeaders: Record<string, string>; managerHeaders: Record<string, string> },
): Promise<ResultRow[]> {
  const rows: ResultRow[] = [];
  for (const name of args.scenarios) {
    const paths = scenarioPaths(name, data, cursor);
    if (typeof paths === "string") {
      for (const c of CONCURRENCIES)
        rows.push({ scenario: name, concurrency: c, product: null, baseline: null, note: paths });
      say(`${name}: skipped (${paths})`);
      continue;
    }
    // Every scenario reads as the support agent but the portfolio, which only its manager (or an admin) may read.
    HEADERS = name.startsWith("portfolio") ? headers.managerHeaders : headers.agentHeaders;
    rss.takePeakSince(); // per-row peaks start with this scenario
    if (name === "portfolio-whole") rows.push(...(await measureWholeBook(args, servers, paths, rss)));
    else rows.push(...(await measureScenario(args, servers, name, paths, rss)));
  }
  return rows;
}

/** The bulk scenario: one machine client copying every transaction (or --bulk-rows of them). */
async function measureBulk(url: string, maxRows: number | undefined): Promise<BulkCopyResult> {
  say(
    `bulk: copying ${maxRows ? `${maxRows.toLocaleString("en-US")} transactions` : "every transaction"} through GET /api/v1/transactions …`,
  );
  const result = await copyAllTransactions(url, await benchBulkHeaders(), maxRows);
  say(bulkLine(result, TARGETS.bulkRowsPerSecond));
  return result;
}

/**
 * The portfolio computed whole on every read: a second product server, configured as the first but keeping no
 * book (PORTFOLIO_KEPT_BOOKS=0), on the port after the others, for this scenario only.
 */
async function measureWholeBook(
  args: BenchArgs,
  servers: RunningServers,
  paths: ScenarioPaths,
  rss: RssSampler,
): Promise<ResultRow[]> {
  const port = Math.max(args.productPort, args.baselinePort, args.floorPort) + 1;
  const env = { ...productBenchEnv(args.databaseUrl), PORTFOLIO_KEPT_BOOKS: "0" };
  const whole = await startApp(port, env);
  say(`product computing every book whole: ${whole.url} (pid ${whole.pid})`);
  try {
    return await measureScenario(args, { ...servers, app: whole }, "portfolio-whole", paths, rss);
  } finally {
    await whole.stop();
  }
}

/** The peaks, the summary and the table, printed and written. */
function finish(
  run: {
    args: BenchArgs;
    data: BenchData;
    rows: ResultRow[];
    bulk: BulkCopyResult | null;
    out: string;
    productLog: string;
  },
  { rss, serverRss, floorRss }: ReturnType<typeof startSamplers>,
) {
  const { rows } = run;
  const peakRssMiB = rss.stop();
  const serverPeakMiB = serverRss?.stop() ?? null;
  const floorPeakMiB = floorRss?.stop() ?? null;
  const summary = withBulk(
    summaryLine(rows, rss.samples() ? peakRssMiB : null),
    run.bulk,
    TARGETS.bulkRowsPerSecond,
  );
  const table = formatTable(rows);
  const rssLine = memoryLine({
    samples: rss.samples(),
    productMiB: peakRssMiB,
    serverMiB: serverPeakMiB,
    floorMiB: floorPeakMiB,
  });
  say(`\n${table}\n\n${rssLine}\n`);
  const peaks = { peakRssMiB, serverPeakMiB, floorPeakMiB };
  writeResults({ ...run, table, rssLine, summary, peaks });
  return { rows, peakRssMiB, summary };
}

/** The players and values the scenarios read, picked from the database and printed. */
async function pickData(args: BenchArgs): Promise<BenchData> {
  const pool = new pg.Pool({ connectionString: args.databaseUrl, max: 2 });
  say(`picking players from ${redact(args.databaseUrl)} …`);
  const data = await pickBenchData(pool, process.env.BENCH_WHALE_ID);
  await pool.end();
  say(
    `whale ${data.whale.id} (${data.whale.transactions} rows), small ${data.small.id} (${data.small.transactions}), ` +
      `portfolio book ${data.book.players} players, ` +
      `type-date ${data.typeDate.eventType} ${data.typeDate.fromDate}..${data.typeDate.toDate} (${data.typeDate.matches}), ` +
      `event_name "${data.eventName.value}" (${data.eventName.matches}), depth ${data.depth}, ` +
      `export from ${data.export.fromDate} (${data.export.rows} rows)`,
  );
  return data;
}

/** Ctrl-C or SIGTERM stops the servers before the process exits; returns what removes the handlers. */
function stopOnSignal(stopAll: () => Promise<void>): () => void {
  let interrupted = false;
  const onSignal = () => {
    if (interrupted) return;
    interrupted = true;
    say("\ninterrupted: stopping the servers …");
    void stopAll().then(() => process.exit(130));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return () => {
    process.off("SIGINT", onSignal);
    process.off("SIGTERM", onSignal);
  };
}

/** The product, the baseline and (for the cheap scenarios) the floor; each noted in `servers` as it starts. */
async function startServers(args: BenchArgs, withFloor: boolean, productLog: string, servers: Servers) {
  const app = await startApp(args.productPort, productBenchEnv(args.databaseUrl), { stdoutFile: productLog });
  servers.app = app;
  const baseline = await startBaseline(args.databaseUrl, args.baselinePort);
  servers.baseline = baseline;
  if (withFloor) servers.floor = await startFloor(args.databaseUrl, args.floorPort);
  const floor = servers.floor;
  say(`product ${app.url} (pid ${app.pid}), baseline ${baseline.url}${floor ? `, floor ${floor.url}` : ""}`);
  return { app, baseline, floor };
}

type Side = {
  side: string;
  url: string;
  path: string;
  pid: () => number | undefined;
  problem: string | null;
};

/** One scenario: a probe per side, a warm-up, then a result row per concurrency. */
async function measureScenario(
  args: BenchArgs,
  { app, baseline, floor }: RunningServers,
  name: ScenarioName,
  paths: ScenarioPaths,
  rss: RssSampler,
): Promise<ResultRow[]> {
  const isExport = name === "export-csv";
  // The floor answers the product's paths.
  const targets = [
    { side: "product", url: app.url, path: paths.product, pid: () => app?.serverPid() ?? app?.pid },
    ...(floor && hasFloor(name)
      ? [{ side: "floor", url: floor.url, path: paths.product, pid: () => floor?.child.pid }]
      : []),
    { side: "baseline", url: baseline.url, path: paths.baseline, pid: () => baseline?.child.pid },
  ] as const;
  // A probe per side: a wrong answer is reported once, readable, instead of as thousands of non-2xx.
  const sides: Side[] = [];
  for (const t of targets) sides.push({ ...t, problem: await probe(t.side, t.url, t.path) });
  // Warm-up: JIT, connection pools, caches (on every side alike).
  for (const { url, path: p, problem } of sides) {
    if (!problem)
      await cannon(`${url}${p}`, 4, isExport ? { amount: 2, timeout: EXPORT_TIMEOUT_S } : { amount: 200 });
  }
  const rows: ResultRow[] = [];
  for (const c of CONCURRENCIES) {
    const measured = await measureRounds(args, sides, c, isExport);
    const row = resultRow(name, c, sides, measured, rss);
    rows.push(row);
    say(progressLine(row));
  }
  return rows;
}

/** Every side at concurrency c, in interleaved rounds; per side, each round's measurement (null: not measured). */
async function measureRounds(args: BenchArgs, sides: Side[], c: number, isExport: boolean) {
  const opts = isExport
    ? { amount: c === 1 ? 5 : c, timeout: EXPORT_TIMEOUT_S }
    : { duration: args.durationSeconds };
  // Interleaved rounds (one for the export), the order rotating (P F B, F B P, …): a neighbour's load lands
  // on a round, and no side idles longer than another before its run (docs/performance.md, rotated rounds).
  const rounds = isExport ? 1 : args.rounds;
  const measured = new Map<string, (Measurement | null)[]>();
  for (let round = 0; round < rounds; round++) {
    const order = rotate(sides, round);
    for (const { side, url, path: p, problem, pid } of order) {
      // Two seconds of the same load first, not counted, for the same reason.
      if (!problem && !isExport) await cannon(`${url}${p}`, c, { duration: WARM_UP_S });
      const m = problem ? null : await measureSide(`${url}${p}`, c, opts, pid());
      measured.set(side, [...(measured.get(side) ?? []), m]);
    }
  }
  return measured;
}

function resultRow(
  name: ScenarioName,
  c: number,
  sides: Side[],
  measured: Map<string, (Measurement | null)[]>,
  rss: RssSampler,
): ResultRow {
  const combined = (side: string) =>
    measured.has(side)
      ? combineRounds((measured.get(side) ?? []).filter((m): m is Measurement => m !== null))
      : undefined;
  const note = sides
    .filter((s) => s.problem)
    .map((s) => `${s.side} ${s.problem}`)
    .join("; ");
  const product = measured.get("product") ?? [];
  return {
    scenario: name,
    concurrency: c,
    product: combined("product") ?? null,
    ...(measured.has("floor")
      ? {
          floor: combined("floor") ?? null,
          floorRatios: roundRatios(product, measured.get("floor") ?? []),
        }
      : {}),
    baseline: combined("baseline") ?? null,
    baselineRatios: roundRatios(product, measured.get("baseline") ?? []),
    productRssMiB: rss.takePeakSince(),
    ...(note ? { note } : {}),
  };
}

/** The results as Markdown (the method, the data, the table, notes, the summary) and as JSON beside it. */
function writeResults(results: {
  args: BenchArgs;
  data: BenchData;
  rows: ResultRow[];
  bulk: BulkCopyResult | null;
  out: string;
  productLog: string;
  table: string;
  rssLine: string;
  summary: string;
  peaks: { peakRssMiB: number | null; serverPeakMiB: number | null; floorPeakMiB: number | null };
}) {
  const { args, data, rows, out, productLog, table, rssLine, summary } = results;
  const { peakRssMiB, serverPeakMiB, floorPeakMiB } = results.peaks;
  const notes = rows.filter((r) => r.note).map((r) => `- ${r.scenario}@c${r.concurrency}: ${r.note}`);
  const md = [
    `# Benchmark ${new Date().toISOString()}`,
    "",
    `Database ${redact(args.databaseUrl)}; per scenario and concurrency ${args.rounds} interleaved rounds (the order of the sides rotating) of ${args.durationSeconds} s per side, each after ${WARM_UP_S} s of the same load not counted; figures are the medians of the rounds, "vs floor" the median of the rounds' ratios (their range in brackets); CPU µs/req is the server's process tree (user + system) per request (export: one round, 5 requests at c1, 32 at c32).`,
    `Whale ${data.whale.id} (${data.whale.transactions} transactions), small player ${data.small.id} (${data.small.transactions});`,
    `type-date: event_type=${data.typeDate.eventType}, ${data.typeDate.fromDate} .. ${data.typeDate.toDate} (${data.typeDate.matches} matches);`,
    `event_name="${data.eventName.value}" (${data.eventName.matches} matches); offset/cursor depth ${data.depth}; export from_date=${data.export.fromDate} (${data.export.rows} rows).`,
    `Product: production build as deployed (tools/bench/product-posture.ts): AUTH_MODE=jwt with a support agent's HS256 token (profiles masked), LOG_LEVEL=info (access log in ${productLog}), RATE_LIMIT_MAX=1e9, audit rows written. Floor (cheap scenarios): tools/bench/floor-app, a minimal Next.js app doing the same Prisma reads with the same start settings. Baseline: node:http + pg (pool 10), LIMIT/OFFSET + count(*); its cursor scenario uses OFFSET at the same depth.`,
    `Targets: ≥ ${TARGETS.cheapFloorRatio}× the floor (profile, small player), ≥ ${TARGETS.whaleRatio}× the baseline (whale scenarios); p99 < ${TARGETS.p99Ms} ms at c1 (all but the export); peak RSS < ${TARGETS.peakRssMiB} MB.`,
    "",
    table,
    "",
    rssLine,
    ...(results.bulk ? ["", bulkLine(results.bulk, TARGETS.bulkRowsPerSecond)] : []),
    ...(notes.length ? ["", "Notes:", ...notes] : []),
    "",
    summary,
    "",
  ].join("\n");
  writeFileSync(out, md);
  writeFileSync(
    `${out.replace(/\.md$/, "")}.json`,
    `${JSON.stringify({ at: new Date().toISOString(), args: { ...args, databaseUrl: redact(args.databaseUrl) }, data, rows, peakRssMiB, serverPeakMiB, floorPeakMiB, summary }, null, 2)}\n`,
  );
  say(`results written to ${out}`);
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  let args: BenchArgs;
  try {
    args = parseBenchArgs(process.argv.slice(2), process.env);
  } catch (error) {
    console.error((error as Error).message);
    process.exit(2);
  }
  try {
    const { summary } = await runBench(args);
    // The last line of the output, always.
    console.log(summary);
    process.exit(summary.startsWith("SUMMARY PASS") ? 0 : 1);
  } catch (error) {
    console.error(error);
    console.log(`SUMMARY FAIL bench did not complete: ${(error as Error).message.split("\n")[0]}`);
    process.exit(1);
  }
}
