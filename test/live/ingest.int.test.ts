import type { NatsConnection } from "@nats-io/transport-node";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgPool } from "@/platform/db/pg-pool";
import { applyMigrations } from "@/platform/db/schema-engine";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { createNatsServer, type NatsServer, natsServerAvailable } from "../support/nats-server.ts";
import { createPgCluster, findPostgresBin, type PgCluster } from "../support/pg-cluster.ts";
import type { Publisher } from "../support/publisher.ts";
import { drive, settleAll } from "../support/sim-driver.ts";
import { WalletSim } from "../support/wallet-sim.ts";
import {
  connectPublisher,
  expectedTotals,
  readDeadLetters,
  readTotals,
  startQuietIngest,
  waitForTotals,
} from "./live-test-kit.ts";
import { checkAgainstImport } from "./reference-import.ts";
import { type ScriptProcess, startScriptProcess } from "./script-process.ts";

/*
 * The live read model against a real NATS JetStream (a throwaway nats-server of the test's own) and real
 * databases: what `npm run ingest` builds from the simulated wallet equals what db:import derives from the same
 * final states, poison events are dead-lettered without blocking the stream, and after a kill -9 of the
 * consumer, a restart of NATS and a restart of PostgreSQL mid-stream nothing is lost or doubled.
 */

// Ports beside the trust tests' (E2E_POSTGRES_PORT + 8..20), the HAProxy cluster's (+30..33) and the JWT ones (+40..45).
const PORT_BASE = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 50;
const hasNats = natsServerAvailable();
// CI requires them (scripts/test.sh checks NATS too): never a silent skip there.
if (!hasNats && process.env.CI === "true")
  throw new Error("nats-server is not on PATH; CI requires the live tests");

describe.runIf(hasNats)("npm run ingest: exactness and poison events", () => {
  let nats: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  let reference: { url: string; stop(): Promise<void> };
  let pool: pg.Pool;
  let ingest: { stop(): Promise<void> } | undefined;
  let pub: { nc: NatsConnection; publisher: Publisher };

  beforeAll(async () => {
    nats = createNatsServer(PORT_BASE);
    await nats.start();
    db = await freshTestDatabase(inject("databaseKind"), "live");
    reference = await freshTestDatabase(inject("databaseKind"), "live_ref");
    pool = createPgPool(db.url, { max: 2 });
    ingest = await startQuietIngest(nats.url, db.url, pool, {
      INGEST_UNKNOWN_PLAYER_DELAY_MS: "100",
      INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES: "3",
    });
    pub = await connectPublisher(nats.url);
  });

  afterAll(async () => {
    await ingest?.stop();
    await pub?.nc.close();
    await pool?.end();
    await db?.stop();
    await reference?.stop();
    await nats?.destroy();
  });

  it("ends with the same players, transactions and daily stats as db:import of the final states", async () => {
    const sim = new WalletSim({
      players: 12,
      prefix: "E",
      seed: 7,
      duplicateShare: 0.05,
      reorderShare: 0.1,
      settleMs: [20, 300],
    });
    for (const e of sim.playerEvents()) await pub.publisher.publish(e);
    await drive(sim, pub.publisher, { rate: 800, durationMs: 2_500 });
    await settleAll(sim, pub.publisher);
    const expected = expectedTotals(sim);
    expect(expected.byStatus.failed ?? 0).toBeGreaterThan(0); // the run has every kind of settlement
    expect(expected.byStatus.completed ?? 0).toBeGreaterThan(1_000);
    const client = await pool.connect();
    try {
      const got = await waitForTotals(() => readTotals(client, "E"), expected, 30_000);
      expect(got).toEqual(expected);
    } finally {
      client.release();
    }
    const result = await checkAgainstImport(sim, db.url, reference.url, {
      copy: inject("databaseKind") === "postgres",
    });
    expect(result.differences).toEqual([]);
    expect(result.players).toBe(12);
    expect(result.transactions).toBe(expected.transactions);
    expect(result.dailyStats).toBeGreaterThan(0);
  });

  // On PostgreSQL only: on the embedded server (PGlite behind its socket) it applied ~50 of 95 transactions within
  // its 20 s bound in CI on 2026-11-26, once the change feed's triggers and the webhook outbox had landed (alone it
  // passed in 0.8 s). The live consumer's target is PostgreSQL; the exactness test above still runs on both.
  it.runIf(inject("databaseKind") === "postgres")(
    "dead-letters a malformed event at once and an unknown player's transaction after the bound; the stream moves on",
    async () => {
      const sim = new WalletSim({ players: 2, prefix: "F", seed: 8 });
      for (const e of sim.playerEvents()) await pub.publisher.publish(e);
      const { jetstream } = await import("@nats-io/jetstream");
      const js = jetstream(pub.nc);
      const orphan = {
        id: "ORPHAN-1",
        player_id: "Z999999",
        date: "2026-11-26T00:00:00.000Z",
        event_type: "bet",
        event_name: "Casino Bet",
        event_note: null,
        currency: "EUR",
        payment_method: null,
        created_by: "System",
        created_at: "2026-11-26T00:00:00.000Z",
        completed_at: "2026-11-26T00:00:00.000Z",
        status: "completed",
        version: 1,
      };
      const orphanJson = JSON.stringify({ ...orphan, amount: 0 }).replace('"amount":0', '"amount":-1.5');
      // Valid but for its amount, a string: money is an exact JSON number.
      const malformed = JSON.stringify({ ...orphan, id: "BAD-1", player_id: "F000001", amount: "12.50" });
      await js.publish("wallet.transaction", malformed, { msgID: "BAD-1:1" });
      await js.publish("wallet.transaction", orphanJson, { msgID: "ORPHAN-1:1" });
      // Events after the poison ones are applied all the same.
      await drive(sim, pub.publisher, { rate: 200, durationMs: 500 });
      await settleAll(sim, pub.publisher);
      const expected = expectedTotals(sim);
      const client = await pool.connect();
      try {
        expect(await waitForTotals(() => readTotals(client, "F"), expected, 20_000)).toEqual(expected);
        const until = Date.now() + 20_000;
        let dead = await readDeadLetters(pub.nc);
        while (dead.length < 2 && Date.now() < until) {
          await new Promise((r) => setTimeout(r, 200));
          dead = await readDeadLetters(pub.nc);
        }
        const bad = dead.find((d) => d.data === malformed);
        expect(bad?.reason).toMatch(/^amount: must be a JSON number/);
        expect(bad?.subject).toBe("wallet.transaction");
        const lost = dead.find((d) => d.data === orphanJson);
        expect(lost?.reason).toBe("unknown player Z999999 after 3 deliveries");
        const rows = await client.query("SELECT id FROM transactions WHERE id IN ('BAD-1', 'ORPHAN-1')");
        expect(rows.rowCount).toBe(0);
        const progress = await client.query<{ dead_total: string }>("SELECT dead_total FROM ingest_progress");
        expect(Number(progress.rows[0]?.dead_total)).toBe(2);
      } finally {
        client.release();
      }
    },
  );
});

const hasPgBin = findPostgresBin() !== null;
if (!hasPgBin && inject("databaseKind") === "postgres" && process.env.CI === "true")
  throw new Error(
    "PostgreSQL server binaries (initdb, pg_ctl) not found; CI requires the fault tests (PG_BIN)",
  );
describe.runIf(hasNats && hasPgBin && inject("databaseKind") === "postgres")(
  "npm run ingest: faults mid-stream",
  () => {
    let nats: NatsServer;
    let cluster: PgCluster;
    let reference: { url: string; stop(): Promise<void> };
    // Killed after the tests too: a failed check must not leave a consumer running.
    const consumers: ScriptProcess[] = [];
    const startConsumer = (env: Record<string, string>) => {
      const consumer = startScriptProcess("ingest", env);
      consumers.push(consumer);
      return consumer;
    };

    beforeAll(async () => {
      nats = createNatsServer(PORT_BASE + 1);
      await nats.start();
      cluster = createPgCluster(PORT_BASE + 2);
      cluster.start();
      await applyMigrations(cluster.url);
      reference = await freshTestDatabase("postgres", "live_fault_ref");
    });

    afterAll(async () => {
      for (const consumer of consumers) await consumer.kill("SIGKILL");
      await nats?.destroy();
      cluster?.destroy();
      await reference?.stop();
    });

    it("after kill -9 of the consumer, a NATS restart and a PostgreSQL restart: nothing lost, nothing doubled", async () => {
      const env = {
        DATABASE_URL: cluster.url,
        NATS_URL: nats.url,
        // The test's own throwaway server, without accounts (nats-access.int.test.ts runs one with them).
        NATS_ALLOW_ANONYMOUS: "on",
        INGEST_ACK_WAIT_MS: "2000",
        INGEST_BATCH_SIZE: "200",
        INGEST_LOG_EVERY_MS: "1000",
      };
      let ingest = startConsumer(env);
      const pub = await connectPublisher(nats.url);
      const sim = new WalletSim({ players: 20, prefix: "K", seed: 9, settleMs: [50, 1_000] });
      for (const e of sim.playerEvents()) await pub.publisher.publish(e);
      const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
      const consuming = async () => {
        while (!ingest.output.some((l) => l.includes("ingest: consuming"))) await pause(100);
        await pause(1_000);
      };
      // The faults one after another while the wallet keeps publishing; the stream runs on 1 s past the last.
      const stopDriving = new AbortController();
      const faults = (async () => {
        await consuming();
        await ingest.kill("SIGKILL");
        await pause(500);
        ingest = startConsumer(env);
        await consuming();
        await nats.stop();
        await pause(1_000);
        await nats.start();
        await pause(1_500);
        cluster.stop("fast");
        await pause(1_000);
        cluster.start();
        await pause(1_000);
        stopDriving.abort();
      })();
      await drive(sim, pub.publisher, { rate: 400, durationMs: 120_000, signal: stopDriving.signal });
      await faults;
      await settleAll(sim, pub.publisher);
      const expected = expectedTotals(sim);
      const client = new pg.Client({ connectionString: cluster.url });
      await client.connect();
      try {
        const got = await waitForTotals(() => readTotals(client, "K"), expected, 60_000);
        expect(got, ingest.output.slice(-40).join("\n")).toEqual(expected);
      } finally {
        await client.end();
      }
      // Balances, KPIs and daily stats too: equal to db:import of the published final states.
      const result = await checkAgainstImport(sim, cluster.url, reference.url);
      expect(result.differences).toEqual([]);
      expect(result.transactions).toBe(expected.transactions);
      // The outages really hit the consumer: it saw the broker go and a batch refused by the database.
      expect(ingest.output.some((l) => l.includes("NATS disconnect"))).toBe(true);
      expect(
        ingest.output.some((l) => l.includes("batch not applied")),
        ingest.output.slice(-80).join("\n"),
      ).toBe(true);
      // SIGTERM: the consumer finishes its batch and exits cleanly.
      const exit = new Promise<number | null>((r) => ingest.child.once("exit", (code) => r(code)));
      ingest.child.kill("SIGTERM");
      expect(await exit).toBe(0);
      await pub.nc.close();
    }, 150_000);
  },
);
