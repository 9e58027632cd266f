/*
 * npm run bench:refresh -- [--database-url URL] [--port N] [--players N]
 *
 * The machine client's refresh of every profile (issue 26): GET each of N profiles from the production build,
 * once one by one under the default quota (waiting `Retry-After` on each 429, as a well-behaved client does),
 * once by batch reads (`GET /players?ids=…`, 100 per request), each against a freshly started server (a full
 * bucket), and prints both times. Needs `npm run build` and a database of at least N players, e.g.
 *   createdb batch_refresh && DATABASE_URL=…/batch_refresh npm run db:migrate &&
 *   DATABASE_URL=…/batch_refresh npm run db:generate -- --players 5000 --transactions 200000
 * Timings on a shared machine are noisy: the figures are one run's, say how loaded the machine was.
 */
import pg from "pg";
import { type AppProcess, type HttpResult, httpGet, isFailure, startApp } from "./app-process.ts";

const DEFAULT_DATABASE = "postgresql://postgres@127.0.0.1:5432/batch_refresh";
const BATCH = 100;
const HEADERS = { Authorization: "Bearer refresh-job", "X-Session-ID": "bench-refresh" };

interface RefreshArgs {
  databaseUrl: string;
  port: number;
  players: number;
}

interface RefreshRun {
  label: string;
  seconds: number;
  requests: number;
  refused: number;
  waitedSeconds: number;
  profiles: number;
}

/** Command line (after `--`) + environment → options; throws a readable message on bad input. */
function parseRefreshArgs(argv: readonly string[], env: Record<string, string | undefined>): RefreshArgs {
  const flags = new Map<string, string>();
  for (let i = 0; i < argv.length; i += 2) {
    const [flag, value] = [argv[i] ?? "", argv[i + 1]];
    if (!["--database-url", "--port", "--players"].includes(flag) || value === undefined) {
      throw new Error(`bench:refresh: unknown or incomplete flag ${flag}`);
    }
    flags.set(flag, value);
  }
  const port = Number(flags.get("--port") ?? Number(env.BENCH_PORT_BASE ?? 3360) + 1);
  const players = Number(flags.get("--players") ?? 5_000);
  if (!Number.isInteger(port) || port < 1 || port > 65_535)
    throw new Error("bench:refresh: --port is no port");
  if (!Number.isInteger(players) || players < 1) throw new Error("bench:refresh: --players must be ≥ 1");
  return { databaseUrl: flags.get("--database-url") ?? env.DATABASE_URL ?? DEFAULT_DATABASE, port, players };
}

async function playerIds(databaseUrl: string, count: number): Promise<string[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<{ id: string }>("SELECT id FROM players ORDER BY id LIMIT $1", [
      count,
    ]);
    if (rows.length < count)
      throw new Error(`bench:refresh: the database has ${rows.length} players, not ${count}`);
    return rows.map((r) => r.id);
  } finally {
    await client.end();
  }
}

/** GET until it is not a 429, sleeping `Retry-After` seconds after each refusal. */
async function getWithRetry(url: string, run: RefreshRun): Promise<HttpResult> {
  for (;;) {
    const res = await httpGet(url, HEADERS);
    run.requests += 1;
    if (isFailure(res)) throw new Error(`bench:refresh: ${url}: ${res.error}`);
    if (res.status !== 429) {
      if (res.status !== 200)
        throw new Error(`bench:refresh: ${url}: ${res.status} ${res.body.slice(0, 200)}`);
      return res;
    }
    run.refused += 1;
    const wait = Math.max(1, Number(res.headers["retry-after"] ?? 1));
    run.waitedSeconds += wait;
    await new Promise((resolve) => setTimeout(resolve, wait * 1000));
  }
}

/** A run of one way of refreshing, timed from its first request to its last answer. */
async function timedRun(label: string, refresh: (run: RefreshRun) => Promise<void>): Promise<RefreshRun> {
  const run: RefreshRun = { label, seconds: 0, requests: 0, refused: 0, waitedSeconds: 0, profiles: 0 };
  const started = performance.now();
  await refresh(run);
  run.seconds = (performance.now() - started) / 1000;
  return run;
}

const oneByOne = (app: AppProcess, ids: readonly string[]) =>
  timedRun("one by one", async (run) => {
    for (const id of ids) {
      await getWithRetry(`${app.url}/api/v1/players/${encodeURIComponent(id)}`, run);
      run.profiles += 1;
    }
  });

const batched = (app: AppProcess, ids: readonly string[]) =>
  timedRun(`batch of ${BATCH}`, async (run) => {
    for (let i = 0; i < ids.length; i += BATCH) {
      const chunk = ids
        .slice(i, i + BATCH)
        .map(encodeURIComponent)
        .join(",");
      const res = await getWithRetry(`${app.url}/api/v1/players?ids=${chunk}`, run);
      run.profiles += (JSON.parse(res.body) as { players: unknown[] }).players.length;
    }
  });

/** Runs one way of refreshing against a freshly started server (its quota's bucket full, its caches cold). */
async function measure(
  args: RefreshArgs,
  ids: readonly string[],
  way: (app: AppProcess, ids: readonly string[]) => Promise<RefreshRun>,
): Promise<RefreshRun> {
  // The default quota (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS, in memory): what a deployment runs.
  const app = await startApp(args.port, {
    DATABASE_URL: args.databaseUrl,
    AUTH_MODE: "demo",
    LOG_LEVEL: "warn",
  });
  try {
    return await way(app, ids);
  } finally {
    await app.stop();
  }
}

function line(run: RefreshRun): string {
  return `${run.label.padEnd(12)} ${run.seconds.toFixed(1).padStart(7)} s  ${String(run.requests).padStart(5)} requests  ${String(run.refused).padStart(4)} × 429 (${run.waitedSeconds} s waited)  ${run.profiles} profiles`;
}

async function main(): Promise<void> {
  const args = parseRefreshArgs(process.argv.slice(2), process.env);
  const ids = await playerIds(args.databaseUrl, args.players);
  console.log(`refreshing ${ids.length} profiles from ${args.databaseUrl.replace(/\/\/[^@]*@/, "//")}`);
  const single = await measure(args, ids, oneByOne);
  console.log(line(single));
  const batch = await measure(args, ids, batched);
  console.log(line(batch));
  if (single.profiles !== ids.length || batch.profiles !== ids.length)
    throw new Error("bench:refresh: profiles missing");
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  },
);
