/*
 * Soak: a bounded load over loopback against the production build, mixing valid reads with invalid
 * requests, for several minutes. Ends with a clean shutdown (SIGTERM) and checks: zero 5xx, zero lost
 * audit records (every 200 read is in audit_events), and flat memory of the server process. soak.spec.ts runs a
 * short one in the suite; the long one is a command of its own:
 *
 *   npm run build && npx tsx e2e/trust/soak.ts      # 5 minutes (SOAK_SECONDS), results in bench-results/
 *
 * Settings (environment): SOAK_SECONDS (300), SOAK_CONCURRENCY (8), SOAK_RPS (150, the bound on the load),
 * SOAK_DATABASE_URL (default: a fresh `<TEST_DB_PREFIX>_soak` database on TEST_POSTGRES_URL's server),
 * SOAK_PORT, SOAK_MAX_GROWTH_PCT (memory growth allowed from the first to the last quarter, 25).
 */
import { randomUUID } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import { pathToFileURL } from "node:url";
import { SignJWT } from "jose";
import pg from "pg";
import {
  type HttpResult,
  httpGet,
  isFailure,
  rssMiB,
  startApp,
  trustPorts,
} from "../../test/support/app-process.ts";
import { migrateAndSeed, recreatePostgresDatabase } from "../../test/support/test-db.ts";
import { median } from "../../tools/median.ts";

export interface SoakOptions {
  seconds: number;
  concurrency: number;
  rps: number;
  databaseUrl?: string;
  port?: number;
  /** Print progress lines. */
  verbose?: boolean;
}

export interface SoakReport {
  seconds: number;
  concurrency: number;
  rpsBound: number;
  requests: number;
  rps: number;
  statuses: Record<string, number>;
  serverErrors: number;
  socketErrors: number;
  latencyMs: { p50: number; p95: number; p99: number; max: number };
  auditedReads: number;
  auditRows: number;
  lostAuditRecords: number;
  memory: {
    samples: number;
    firstQuarterMiB: number;
    lastQuarterMiB: number;
    maxMiB: number;
    growthPct: number;
    slopeMiBPerMin: number;
  };
  exitCode: number | string;
}

const SECRET = "soak-secret-soak-secret-soak-secret!";
const sign = (sub: string, roles: string[]) =>
  new SignJWT({ roles })
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setExpirationTime("2h")
    .sign(new TextEncoder().encode(SECRET));

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;
const player = () => `P${String(1 + Math.floor(Math.random() * 240)).padStart(6, "0")}`;
const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0;

export async function runSoak(options: SoakOptions): Promise<SoakReport> {
  const runId = randomUUID().slice(0, 8);
  const say = (line: string) => options.verbose && console.log(line);
  const databaseUrl = await soakDatabase(options, say);
  const app = await startApp(options.port ?? trustPorts().appBase + 5, {
    DATABASE_URL: databaseUrl,
    AUTH_MODE: "demo",
    AUTH_JWT_SECRET: SECRET,
    RATE_LIMIT_MAX: "100000000",
    LOG_LEVEL: "warn",
  });
  const serverPid = app.serverPid();
  const [agent, vip, admin] = await Promise.all([
    sign("soak-agent", ["support_agent"]),
    sign("soak-vip", ["vip_manager"]),
    sign("soak-admin", ["admin"]),
  ]);
  const next = requestRotation({ agent, vip, admin });
  const load = await runLoad(options, { url: app.url, serverPid, runId, next, say });

  say("stopping the server (SIGTERM) …");
  const exitCode = await app.stop(30_000);
  const auditRows = await countAuditRows(databaseUrl, runId);
  return soakReport(options, load, auditRows, exitCode);
}

type SoakRequest = [string, string | null, string?];

/** The given database, or a fresh `<prefix>_soak` one, migrated and seeded. */
async function soakDatabase(options: SoakOptions, say: (line: string) => unknown): Promise<string> {
  let databaseUrl = options.databaseUrl;
  if (!databaseUrl) {
    say("creating the soak database …");
    databaseUrl = await recreatePostgresDatabase(`${process.env.TEST_DB_PREFIX ?? "par"}_soak`);
    await migrateAndSeed(databaseUrl);
  }
  return databaseUrl;
}

/** The next request to send: the kinds of request in a fixed rotation, each as often as its weight. */
function requestRotation({ agent, vip, admin }: { agent: string; vip: string; admin: string }) {
  const requests: [weight: number, make: () => [string, string | null, string?]][] = [
    [20, () => [`/api/v1/players/${player()}`, pick([agent, vip, "demo"])]],
    [
      25,
      () => {
        const f = pick([
          "",
          "event_type=bet,win",
          "event_type=deposit&from_date=2026-01-01",
          "created_by=Admin",
          "event_name=Card%20Deposit",
          "to_date=2025-12-31T23:59:59Z",
        ]);
        return [
          `/api/v1/players/${player()}/transactions?limit=${pick([5, 20, 100])}&offset=${pick([0, 20, 500])}&${f}`,
          pick([agent, vip]),
        ];
      },
    ],
    [
      10,
      () => [
        `/api/v1/players?q=${pick(["P0001", "son", "example", "mü", "Ana"])}&limit=20`,
        pick([agent, vip]),
      ],
    ],
    [5, () => [`/api/v1/players/${player()}/audit?limit=20`, admin]],
    [
      10,
      () => [
        `/api/v1/players/${player()}/transactions?${pick(["limit=0", "limit=abc", "offset=-1", "event_type=jackpot", "from_date=2026-02-30", "evnt_type=bet", "limit=5&limit=6"])}`,
        agent,
      ],
    ],
    [5, () => [`/api/v1/players/NOPE-${Math.floor(Math.random() * 1e6)}`, agent]],
    [5, () => [`/api/v1/players/${pick(["%ZZ", "%C0%AF", "%E0%A4%A"])}/transactions`, agent]],
    [5, () => [`/api/v1/players/${player()}`, null]],
    [5, () => [`/api/v1/players/${player()}/audit`, agent]],
    [5, () => [`/api/v1/players/${player()}/transactions`, "demo", "POST"]],
  ];
  // A fixed rotation through the kinds of request (each as often as its weight), so even a short run
  // covers every kind; the parameters within each kind are random.
  const schedule = requests.flatMap(([w, make]) => Array<typeof make>(w).fill(make));
  for (let i = schedule.length - 1; i > 0; i--) {
    const j = (i * 7919) % (i + 1);
    [schedule[i], schedule[j]] = [
      schedule[j] as (typeof schedule)[number],
      schedule[i] as (typeof schedule)[number],
    ];
  }
  let turn = 0;
  return () => (schedule[turn++ % schedule.length] as (typeof schedule)[number])();
}

interface LoadResult {
  statuses: Record<string, number>;
  latencies: number[];
  socketErrors: number;
  auditedReads: number;
  memory: { t: number; mib: number }[];
  elapsed: number;
}

/** The bounded load: `concurrency` workers until the time is up, sampling the server's memory meanwhile. */
async function runLoad(
  options: SoakOptions,
  run: {
    url: string;
    serverPid: number | null | undefined;
    runId: string;
    next: () => SoakRequest;
    say: (line: string) => unknown;
  },
): Promise<LoadResult> {
  const { serverPid, say } = run;
  const load: LoadResult = {
    statuses: {},
    latencies: [],
    socketErrors: 0,
    auditedReads: 0,
    memory: [],
    elapsed: 0,
  };
  const { statuses, latencies, memory } = load;
  const started = Date.now();
  const endAt = started + options.seconds * 1000;
  const interval = (1000 * options.concurrency) / options.rps; // per worker, to respect the bound

  const sampler = setInterval(() => {
    const mib = serverPid ? rssMiB(serverPid) : null;
    if (mib) memory.push({ t: Date.now() - started, mib });
  }, 2_000);
  const progress = setInterval(() => {
    const done = latencies.length;
    say(
      `${Math.round((Date.now() - started) / 1000)} s: ${done} requests, statuses ${JSON.stringify(statuses)}, rss ${memory.at(-1)?.mib.toFixed(0)} MiB`,
    );
  }, 30_000);

  await Promise.all(
    Array.from({ length: options.concurrency }, (_, n) => worker(n, run, load, endAt, interval)),
  );
  clearInterval(sampler);
  clearInterval(progress);
  load.elapsed = (Date.now() - started) / 1000;
  return load;
}

/** One worker: requests one after another, paced to its share of the bound, counted into `load`. */
async function worker(
  n: number,
  run: { url: string; runId: string; next: () => SoakRequest },
  load: LoadResult,
  endAt: number,
  interval: number,
) {
  const session = `soak-${run.runId}-w${n}`;
  while (Date.now() < endAt) {
    const t0 = Date.now();
    const [path, token, method] = run.next();
    const headers: Record<string, string> = { "X-Session-ID": session };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = method
      ? await rawRequest(`${run.url}${path}`, method, headers)
      : await httpGet(`${run.url}${path}`, headers);
    if (isFailure(res)) load.socketErrors += 1;
    else {
      load.statuses[res.status] = (load.statuses[res.status] ?? 0) + 1;
      load.latencies.push(res.ms);
      if (res.status === 200 && !method) load.auditedReads += 1;
    }
    const wait = interval - (Date.now() - t0);
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
  }
}

/** Audit rows written for this run's sessions. */
async function countAuditRows(databaseUrl: string, runId: string): Promise<number> {
  const db = new pg.Client({ connectionString: databaseUrl });
  await db.connect();
  const { rows } = await db.query<{ n: string }>(
    "SELECT count(*) AS n FROM audit_events WHERE session_id LIKE $1",
    [`soak-${runId}-%`],
  );
  await db.end();
  return Number(rows[0]?.n ?? 0);
}

/** Memory: the first quarter after warm-up against the last quarter, and the slope after warm-up. */
function memoryTrend(memory: { t: number; mib: number }[]) {
  const q = Math.max(1, Math.floor(memory.length / 4));
  // The first quarter after warm-up vs the last quarter.
  const warm = memory.slice(Math.floor(memory.length / 5));
  const firstQ = memory.length ? median(warm.slice(0, q).map((m) => m.mib)) : 0;
  const lastQ = memory.length ? median(memory.slice(-q).map((m) => m.mib)) : 0;
  const slope = (() => {
    const n = warm.length;
    if (n < 2) return 0;
    const mx = warm.reduce((s, m) => s + m.t, 0) / n;
    const my = warm.reduce((s, m) => s + m.mib, 0) / n;
    const num = warm.reduce((s, m) => s + (m.t - mx) * (m.mib - my), 0);
    const den = warm.reduce((s, m) => s + (m.t - mx) ** 2, 0);
    return den ? (num / den) * 60_000 : 0;
  })();
  return { firstQ, lastQ, slope };
}

function soakReport(
  options: SoakOptions,
  load: LoadResult,
  auditRows: number,
  exitCode: number | string,
): SoakReport {
  const { statuses, latencies, socketErrors, auditedReads, memory, elapsed } = load;
  const sorted = [...latencies].sort((a, b) => a - b);
  const { firstQ, lastQ, slope } = memoryTrend(memory);
  return {
    seconds: Math.round(elapsed),
    concurrency: options.concurrency,
    rpsBound: options.rps,
    requests: latencies.length + socketErrors,
    rps: Math.round((latencies.length + socketErrors) / elapsed),
    statuses,
    serverErrors: Object.entries(statuses)
      .filter(([s]) => Number(s) >= 500)
      .reduce((sum, [, n]) => sum + n, 0),
    socketErrors,
    latencyMs: {
      p50: percentile(sorted, 0.5),
      p95: percentile(sorted, 0.95),
      p99: percentile(sorted, 0.99),
      max: sorted.at(-1) ?? 0,
    },
    auditedReads,
    auditRows,
    lostAuditRecords: auditedReads - auditRows,
    memory: {
      samples: memory.length,
      firstQuarterMiB: Math.round(firstQ),
      lastQuarterMiB: Math.round(lastQ),
      maxMiB: Math.round(Math.max(0, ...memory.map((m) => m.mib))),
      growthPct: firstQ ? Math.round(((lastQ - firstQ) / firstQ) * 1000) / 10 : 0,
      slopeMiBPerMin: Math.round(slope * 100) / 100,
    },
    exitCode,
  };
}

/** A request with another method (the API answers 405). */
async function rawRequest(
  url: string,
  method: string,
  headers: Record<string, string>,
): Promise<HttpResult | { error: string; startedAt: number; ms: number }> {
  const t0 = Date.now();
  try {
    const res = await fetch(url, { method, headers });
    const body = await res.text();
    return {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body,
      startedAt: t0,
      ms: Date.now() - t0,
    };
  } catch (error) {
    return { error: String(error), startedAt: t0, ms: Date.now() - t0 };
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  const report = await runSoak({
    seconds: Number(process.env.SOAK_SECONDS ?? 300),
    concurrency: Number(process.env.SOAK_CONCURRENCY ?? 8),
    rps: Number(process.env.SOAK_RPS ?? 150),
    databaseUrl: process.env.SOAK_DATABASE_URL,
    port: process.env.SOAK_PORT ? Number(process.env.SOAK_PORT) : undefined,
    verbose: true,
  });
  console.log(JSON.stringify(report, null, 2));
  mkdirSync("bench-results", { recursive: true });
  const file = `bench-results/soak-${new Date().toISOString().replace(/[:.]/g, "-")}.json`;
  writeFileSync(file, `${JSON.stringify(report, null, 2)}\n`);
  const maxGrowth = Number(process.env.SOAK_MAX_GROWTH_PCT ?? 25);
  const problems = [
    report.serverErrors > 0 && `${report.serverErrors} responses were 5xx`,
    report.socketErrors > 0 && `${report.socketErrors} requests failed at the socket`,
    report.lostAuditRecords !== 0 && `${report.lostAuditRecords} audit records missing`,
    report.memory.growthPct > maxGrowth && `memory grew ${report.memory.growthPct}% (> ${maxGrowth}%)`,
  ].filter(Boolean);
  console.log(problems.length ? `SOAK FAILED: ${problems.join("; ")}` : `soak passed; results in ${file}`);
  process.exit(problems.length ? 1 : 0);
}
