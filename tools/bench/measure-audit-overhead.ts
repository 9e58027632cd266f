/*
 * What does auditing cost a read? Runs the real route handlers in-process against PostgreSQL, in
 * alternating rounds with the audit trail written (batched INSERTs) and with a queue whose writer does
 * nothing, and compares latency and throughput.
 *
 *   npm run measure:audit       # MEASURE_DATABASE_URL, else a fresh <TEST_DB_PREFIX>_audit_bench database
 *
 * MEASURE_ROUNDS (6) rounds per mode of MEASURE_REQUESTS (400) requests at MEASURE_CONCURRENCY (8).
 */
import { AuditQueue } from "../../lib/audit/audit-queue.ts";
import { setAuditQueue } from "../../lib/audit/audit-recorder.ts";
import { recordAuditEvents } from "../../lib/audit/record-audit-events.ts";
import { getPrisma } from "../../lib/db/client.ts";
import { createRouteKit } from "../../test/support/route-test-kit.ts";
import { migrateAndSeed, recreatePostgresDatabase } from "../../test/support/test-db.ts";

const ROUNDS = Number(process.env.MEASURE_ROUNDS ?? 6);
const REQUESTS = Number(process.env.MEASURE_REQUESTS ?? 400);
const CONCURRENCY = Number(process.env.MEASURE_CONCURRENCY ?? 8);

let databaseUrl = process.env.MEASURE_DATABASE_URL;
if (!databaseUrl) {
  databaseUrl = await recreatePostgresDatabase(`${process.env.TEST_DB_PREFIX ?? "par"}_audit_bench`);
  await migrateAndSeed(databaseUrl);
}
const kit = await createRouteKit(databaseUrl);
const queueOptions = { batchSize: 500, flushIntervalMs: 250, maxPending: 50_000 };
const modes = {
  audited: () => new AuditQueue((records) => recordAuditEvents(records), queueOptions),
  "not audited": () => new AuditQueue(async () => {}, queueOptions),
};

const paths = (i: number) => {
  const player = `P${String(1 + (i % 240)).padStart(6, "0")}`;
  return i % 2 ? `/api/v1/players/${player}` : `/api/v1/players/${player}/transactions?limit=20`;
};

async function round(): Promise<{ latencies: number[]; seconds: number }> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < REQUESTS) {
        const i = next++;
        const t0 = performance.now();
        const res = await kit.call("GET", paths(i), { headers: { "x-session-id": "audit-bench" } });
        if (res.status !== 200) throw new Error(`unexpected ${res.status}: ${res.text}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  return { latencies, seconds: (performance.now() - started) / 1000 };
}

const results: Record<string, { latencies: number[]; seconds: number }> = {
  audited: { latencies: [], seconds: 0 },
  "not audited": { latencies: [], seconds: 0 },
};
await round(); // warm-up: connections, query plans, JIT
for (let r = 0; r < ROUNDS; r++) {
  // ABBA order: drift in the machine's load (it is shared) falls on both modes alike.
  const order = r % 2 ? Object.entries(modes).reverse() : Object.entries(modes);
  for (const [name, make] of order) {
    const queue = make();
    setAuditQueue(queue);
    const { latencies, seconds } = await round();
    await queue.flush(); // the audited round's writes are part of its cost
    const bucket = results[name] as { latencies: number[]; seconds: number };
    bucket.latencies.push(...latencies);
    bucket.seconds += seconds;
  }
}

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(p * s.length))] ?? 0;
};
const summary = Object.fromEntries(
  Object.entries(results).map(([name, r]) => [
    name,
    {
      requests: r.latencies.length,
      rps: Math.round(r.latencies.length / r.seconds),
      p50ms: Number(pct(r.latencies, 0.5).toFixed(2)),
      p95ms: Number(pct(r.latencies, 0.95).toFixed(2)),
    },
  ]),
);
const a = summary.audited as { rps: number; p50ms: number; p95ms: number };
const b = summary["not audited"] as { rps: number; p50ms: number; p95ms: number };
console.log(
  JSON.stringify(
    {
      concurrency: CONCURRENCY,
      rounds: ROUNDS,
      ...summary,
      overhead: {
        p50Pct: Number((((a.p50ms - b.p50ms) / b.p50ms) * 100).toFixed(1)),
        p95Pct: Number((((a.p95ms - b.p95ms) / b.p95ms) * 100).toFixed(1)),
        throughputPct: Number((((b.rps - a.rps) / b.rps) * 100).toFixed(1)),
      },
    },
    null,
    2,
  ),
);
await getPrisma().$disconnect();
