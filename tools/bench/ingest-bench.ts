/*
 * npm run bench:ingest: the live read model under load (issue 24's targets), on a throwaway NATS server and a
 * database of its own on the local PostgreSQL:
 *   1. sustained: --rate events/s (default 2,000) for --duration s (default 60): publish → committed lag p99
 *      (the publish's stream sequence against the consumer's committed progress, observed at COMMIT through
 *      LISTEN player_changes) and publish → visible through GET /api/v1/players/{id}/transactions p99 (when a
 *      production build exists: `npm run build`);
 *   2. bursts: --burst-rate (default 5,000) for --burst-duration s (default 10): lag p99;
 *   3. backlog: the consumer stopped, --backlog events (default 25,000) published, then started: drain rate;
 *   4. CPU per event of the consumer (its process) and of PostgreSQL (the consumer's backends), per phase;
 *   5. the exactness check: the read model against db:import of the published final states.
 * Usage: npm run bench:ingest -- [--rate 2000] [--duration 60] [--burst-rate 5000] [--burst-duration 10]
 *   [--backlog 25000] [--players 200] [--port-base 4290]
 * Figures on a shared machine vary: the run prints them, it asserts nothing.
 */
import { existsSync } from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { applyMigrations } from "@/platform/db/schema-engine";
import { PLAYER_CHANGES_CHANNEL } from "@/workers/ingest/player-changes";
import { compiledScriptsPresent } from "../../scripts/compiled-scripts.mjs";
import {
  connectPublisher,
  expectedTotals,
  readTotals,
  waitForTotals,
} from "../../test/live/live-test-kit.ts";
import { checkAgainstImport } from "../../test/live/reference-import.ts";
import { type ScriptProcess, startScriptProcess } from "../../test/live/script-process.ts";
import { type AppProcess, httpGet, isFailure, startApp } from "../../test/support/app-process.ts";
import { createNatsServer } from "../../test/support/nats-server.ts";
import { treeCpuSeconds } from "../../test/support/process-rss.ts";
import type { Publisher } from "../../test/support/publisher.ts";
import { drive, settleAll } from "../../test/support/sim-driver.ts";
import { dropPostgresDatabase, recreatePostgresDatabase } from "../../test/support/test-db.ts";
import { type SimTransaction, WalletSim } from "../../test/support/wallet-sim.ts";

const { values } = parseArgs({
  options: {
    rate: { type: "string", default: "2000" },
    duration: { type: "string", default: "60" },
    "burst-rate": { type: "string", default: "5000" },
    "burst-duration": { type: "string", default: "10" },
    backlog: { type: "string", default: "25000" },
    players: { type: "string", default: "200" },
    "port-base": { type: "string", default: process.env.BENCH_PORT_BASE ?? "4290" },
  },
});
const num = (k: keyof typeof values) => Number(values[k]);
const portBase = num("port-base");
const say = (line: string) => console.log(line);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

function p99(xs: number[]): number {
  if (!xs.length) return Number.NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil(s.length * 0.99) - 1)] ?? Number.NaN;
}
const p50 = (xs: number[]) =>
  xs.length ? ([...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0) : Number.NaN;
const ms = (x: number) => `${Math.round(x)} ms`;

/** Publish times by stream sequence, and the committed progress as observed at each COMMIT. */
class LagMeter {
  readonly published = new Map<number, number>();
  readonly observations: [number, number][] = []; // [time, committed stream_seq]
  /** The highest stream sequence published so far (a loop, not Math.max(...keys): 150k arguments overflow the stack). */
  lastSeq(): number {
    let last = 0;
    for (const seq of this.published.keys()) if (seq > last) last = seq;
    return last;
  }
  /** Resolves once a commit has covered every sequence published so far, or after `timeoutMs`. */
  async caughtUp(timeoutMs: number): Promise<void> {
    const last = this.lastSeq();
    const until = Date.now() + timeoutMs;
    while (Date.now() < until && !this.observations.some(([, s]) => s >= last)) await pause(100);
  }
  /** Lags (ms) of the events published in [from, to). */
  lags(from: number, to: number): number[] {
    const obs = [...this.observations].sort((a, b) => a[0] - b[0]);
    // The committed sequence only grows: a running maximum, then the first observation reaching each event.
    let max = 0;
    const reach: [number, number][] = obs.map(([t, s]) => {
      max = Math.max(max, s);
      return [t, max];
    });
    const out: number[] = [];
    for (const [seq, at] of this.published) {
      if (at < from || at >= to) continue;
      let lo = 0;
      let hi = reach.length;
      while (lo < hi) {
        const mid = (lo + hi) >> 1;
        if ((reach[mid]?.[1] ?? 0) >= seq) hi = mid;
        else lo = mid + 1;
      }
      const hit = reach[lo];
      if (hit) out.push(hit[0] - at);
    }
    return out;
  }
}

/** Everything one run holds: the servers, the database clients, the simulated wallet and the meters. */
interface IngestBench {
  nats: ReturnType<typeof createNatsServer>;
  dbName: string;
  dbUrl: string;
  refUrl: string;
  ingestEnv: Record<string, string>;
  ingest: ScriptProcess;
  app: AppProcess | null;
  meter: LagMeter;
  listener: pg.Client;
  probe: pg.Client;
  pub: Awaited<ReturnType<typeof connectPublisher>>;
  sim: WalletSim;
  publisher: Publisher;
  /** Transactions published since the visibility probe last picked one. */
  fresh: { tx: SimTransaction; at: number }[];
  /** Publish → visible through the API (ms), per probe. */
  visible: number[];
  probing: boolean;
}

/** What the run has started so far: stopped however the run ends, even during setUp. */
const started: Partial<IngestBench> = {};

async function main() {
  // An error or Ctrl-C stops the servers too: a stray nats-server on the port stalls the next run.
  const abort = () => void tearDown(started).finally(() => process.exit(130));
  process.once("SIGINT", abort);
  process.once("SIGTERM", abort);
  try {
    await runPhases(await setUp());
  } finally {
    await tearDown(started);
  }
}

async function runPhases(bench: IngestBench) {
  say(
    `bench:ingest — NATS ${bench.nats.url}, database ${bench.dbName}, ${num("players")} players; figures under whatever else runs on this machine`,
  );
  await phase(bench, "sustained", num("rate"), num("duration"));
  bench.visible.length = 0;
  await phase(bench, "bursts", num("burst-rate"), num("burst-duration"));
  await backlogPhase(bench);
  await exactness(bench);
}

/** NATS, the two databases, the consumer, the app (with a production build), the commit watch, the profiles. */
async function setUp(): Promise<IngestBench> {
  const nats = createNatsServer(portBase);
  started.nats = nats;
  await nats.start();
  const dbName = `${process.env.TEST_DB_PREFIX ?? "par"}_bench_ingest`;
  const dbUrl = await recreatePostgresDatabase(dbName);
  const refUrl = await recreatePostgresDatabase(`${dbName}_ref`);
  await applyMigrations(dbUrl);
  await applyMigrations(refUrl);
  const ingestEnv = {
    DATABASE_URL: dbUrl,
    NATS_URL: nats.url,
    // The bench's own throwaway server on loopback, without accounts.
    NATS_ALLOW_ANONYMOUS: "on",
    INGEST_LOG_EVERY_MS: "10000",
    LOG_LEVEL: "warn",
  };
  started.dbName = dbName;
  const ingest: ScriptProcess = startScriptProcess("ingest", ingestEnv);
  started.ingest = ingest;
  const app = await startAppIfBuilt(dbUrl);
  started.app = app;
  const meter = new LagMeter();
  const { listener, probe } = await watchCommits(dbUrl, meter);
  Object.assign(started, { listener, probe });
  const fresh: { tx: SimTransaction; at: number }[] = [];
  const pub = await connectPublisher(nats.url, {
    onAck: (event, at, seq, duplicate) => {
      if (duplicate) return;
      meter.published.set(seq, at);
      if (event.subject === "wallet.transaction" && event.record.version === 1)
        fresh.push({ tx: event.record, at });
    },
  });
  started.pub = pub;
  const { publisher } = pub;
  const sim = new WalletSim({ players: num("players"), prefix: "B", seed: 2000 });
  const bench: IngestBench = {
    nats,
    dbName,
    dbUrl,
    refUrl,
    ingestEnv,
    ingest,
    app,
    meter,
    listener,
    probe,
    pub,
    sim,
    publisher,
    fresh,
    visible: [],
    probing: false,
  };
  await publishProfiles(bench);
  return bench;
}

async function startAppIfBuilt(dbUrl: string): Promise<AppProcess | null> {
  const appPort = portBase + 1;
  if (existsSync(path.join(process.cwd(), ".next", "BUILD_ID")) && compiledScriptsPresent(process.cwd())) {
    return await startApp(appPort, {
      DATABASE_URL: dbUrl,
      AUTH_MODE: "demo",
      RATE_LIMIT_MAX: "0",
      LOG_LEVEL: "warn",
    });
  }
  say("(no production build: publish → visible is not measured; run `npm run build` first)");
  return null;
}

/** Observing commits: every player_changes notification is sent at a COMMIT; read the progress then. */
async function watchCommits(dbUrl: string, meter: LagMeter) {
  const listener = new pg.Client({ connectionString: dbUrl });
  await listener.connect();
  const probe = new pg.Client({ connectionString: dbUrl });
  await probe.connect();
  let reading = false;
  let again = false;
  const readProgress = async () => {
    if (reading) {
      again = true;
      return;
    }
    reading = true;
    do {
      again = false;
      const r = await probe.query<{ s: string }>("SELECT max(stream_seq) AS s FROM ingest_progress");
      meter.observations.push([Date.now(), Number(r.rows[0]?.s ?? 0)]);
    } while (again);
    reading = false;
  };
  listener.on("notification", () => void readProgress());
  await listener.query(`LISTEN ${PLAYER_CHANGES_CHANNEL}`);
  return { listener, probe };
}

/** Every player's profile, published and applied: the consumer is up before the clock starts. */
async function publishProfiles({ sim, publisher, probe }: IngestBench) {
  await publisher.publishAll(sim.playerEvents());
  await publisher.settle();
  while (
    Number((await probe.query<{ n: string }>("SELECT count(*) AS n FROM players")).rows[0]?.n) <
    num("players")
  ) {
    await pause(200);
  }
}

/** Publish → visible through the API: a few probes per second of freshly published transactions. */
async function probeVisible(bench: IngestBench) {
  const { app, fresh, visible } = bench;
  if (!app) return;
  bench.probing = true;
  let inFlight = 0;
  while (bench.probing) {
    const pick = fresh.at(-1);
    fresh.length = 0;
    if (pick && inFlight < 5) {
      inFlight += 1;
      void (async () => {
        const url = `${app?.url}/api/v1/players/${pick.tx.player_id}/transactions?transaction_id=${encodeURIComponent(pick.tx.id)}&limit=1`;
        const until = Date.now() + 10_000;
        while (Date.now() < until) {
          const res = await httpGet(url, { Authorization: "Bearer bench", "X-Session-ID": "bench" }, 5_000);
          if (!isFailure(res) && res.status === 200 && JSON.parse(res.body).total >= 1) {
            visible.push(Date.now() - pick.at);
            break;
          }
          await pause(20);
        }
        inFlight -= 1;
      })();
    }
    await pause(200);
  }
}

const cpu = (bench: IngestBench) => ({ consumer: treeCpuSeconds(bench.ingest.child.pid ?? 0), pg: 0 });
async function pgCpu({ probe }: IngestBench) {
  const r = await probe.query<{ pid: number }>(
    "SELECT pid FROM pg_stat_activity WHERE datname = current_database() AND application_name LIKE 'ingest:%'",
  );
  return r.rows.reduce((s, row) => s + treeCpuSeconds(row.pid), 0);
}

/** One load phase: publish at `rate` for `seconds`, then the lags, visibility and CPU per event. */
async function phase(bench: IngestBench, name: string, rate: number, seconds: number) {
  const { meter, sim, publisher, app, visible } = bench;
  const c0 = cpu(bench);
  const g0 = await pgCpu(bench);
  const applied0 = meter.published.size;
  const from = Date.now();
  // Only where it is reported: each probe polls the API every 20 ms until its transaction shows, so under a
  // burst's seconds of lag five probes took half a core from the consumer and PostgreSQL.
  const probes = name === "sustained" ? probeVisible(bench) : Promise.resolve();
  await drive(sim, publisher, { rate, durationMs: seconds * 1000 });
  await publisher.settle();
  const to = Date.now();
  // Every event of the phase committed before its lags are read: otherwise the slowest are left out of the p99.
  await meter.caughtUp(120_000);
  bench.probing = false;
  await probes;
  const events = meter.published.size - applied0;
  const lags = meter.lags(from, to);
  const c1 = cpu(bench);
  const g1 = await pgCpu(bench);
  say(
    `${name}: ${events.toLocaleString("en")} events at ${Math.round((events * 1000) / (to - from))}/s (asked ${rate}/s for ${seconds} s): publish → committed p50 ${ms(p50(lags))}, p99 ${ms(p99(lags))} (${lags.length} events)` +
      (app && name === "sustained"
        ? `; publish → visible via the API p50 ${ms(p50(visible))}, p99 ${ms(p99(visible))} (${visible.length} probes)`
        : ""),
  );
  say(
    `  CPU per event: consumer ${Math.round(((c1.consumer - c0.consumer) * 1e6) / Math.max(1, events))} µs, PostgreSQL (its backends) ${Math.round(((g1 - g0) * 1e6) / Math.max(1, events))} µs`,
  );
}

/** Backlog: the consumer away while the wallet publishes, then the drain. */
async function backlogPhase(bench: IngestBench) {
  const { meter, sim, publisher, probe } = bench;
  await bench.ingest.kill("SIGTERM");
  const before = meter.published.size;
  const backlog = num("backlog");
  const t0 = Date.now();
  while (meter.published.size - before < backlog) {
    await publisher.publishAll(sim.step(Date.now()));
  }
  await publisher.settle();
  const lastSeq = meter.lastSeq();
  say(
    `backlog: ${(meter.published.size - before).toLocaleString("en")} events published in ${((Date.now() - t0) / 1000).toFixed(1)} s with the consumer stopped`,
  );
  const committed = async () =>
    Number(
      (await probe.query<{ s: string }>("SELECT max(stream_seq) AS s FROM ingest_progress")).rows[0]?.s ?? 0,
    );
  const atStart = await committed();
  bench.ingest = startScriptProcess("ingest", bench.ingestEnv);
  started.ingest = bench.ingest;
  const startedAt = Date.now();
  let firstAt = 0;
  let seen = atStart;
  while (seen < lastSeq && Date.now() - startedAt < 300_000) {
    await pause(50);
    seen = await committed();
    if (!firstAt && seen > atStart) firstAt = Date.now();
  }
  const doneAt = Date.now();
  const drainMs = doneAt - (firstAt || startedAt);
  const drained = meter.published.size - before;
  say(
    `backlog drain: ${Math.round((drained * 1000) / Math.max(1, drainMs))} events/s (${(drainMs / 1000).toFixed(1)} s from the first commit; ${((doneAt - startedAt) / 1000).toFixed(1)} s including the consumer's start)`,
  );
}

/** Exactness: every settlement published, the read model against db:import of the final states. */
async function exactness({ sim, publisher, probe, dbUrl, refUrl }: IngestBench) {
  await settleAll(sim, publisher);
  const expected = expectedTotals(sim);
  const got = await waitForTotals(() => readTotals(probe, "B"), expected, 120_000);
  const result = await checkAgainstImport(sim, dbUrl, refUrl);
  say(
    `exactness: ${result.players} players, ${result.transactions.toLocaleString("en")} transactions, ${result.dailyStats.toLocaleString("en")} daily stats rows against db:import of the same final states: ${result.differences.length === 0 && got.transactions === expected.transactions ? "equal (0 differences)" : `differences in ${result.differing.players} players, ${result.differing.transactions} transactions, ${result.differing.dailyStats} daily stats rows: ${result.differences.slice(0, 6).join("; ")}`}`,
  );
}

/** Stops everything setUp started; each step on its own, so one failing leaves none of the others running. */
async function tearDown(bench: Partial<IngestBench>) {
  const { dbName } = bench;
  const steps: (() => unknown)[] = [
    () => bench.ingest?.kill("SIGTERM"),
    () => bench.app?.stop(),
    () => bench.listener?.end(),
    () => bench.probe?.end(),
    () => bench.pub?.nc.close(),
    () => bench.nats?.destroy(),
    () => dbName && dropPostgresDatabase(dbName),
    () => dbName && dropPostgresDatabase(`${dbName}_ref`),
  ];
  for (const step of steps)
    await Promise.resolve()
      .then(step)
      .catch(() => undefined);
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
