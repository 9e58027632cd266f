import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { jetstream } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPgPool } from "@/platform/db/pg-pool";
import { seedDemoData } from "@/prisma/seed";
import { ensureWalletStream } from "@/workers/ingest/wallet-stream";
import { generateDataset } from "../../tools/data/generate-dataset.ts";
import { importNdjson } from "../../tools/data/import-ndjson.ts";
import { ChangeFeedSyncer } from "../support/change-feed-syncer.ts";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { closeApp } from "../support/in-process-app.ts";
import { LedgerSyncer } from "../support/ledger-syncer.ts";
import { createNatsServer, type NatsServer, natsServerAvailable } from "../support/nats-server.ts";
import { createRouteKit, type RouteKit } from "../support/route-test-kit.ts";
import { txLine } from "../support/test-import-lines.ts";
import { startQuietIngest } from "./live-test-kit.ts";

/*
 * The done-when test: a syncer keeps 500 profiles and one player's transactions, follows the change feed
 * while every writer changes data (the seed, db:generate, db:import and the live consumer applying wallet events
 * from a real NATS JetStream, a backdated transaction and a pending → completed completion among them) and ends
 * with exactly what a full re-read gives; then the log is pruned past its position, and the feed reset: each time
 * the feed answers 410, the syncer starts again with a full read and again ends with what a full re-read gives.
 * A second syncer follows with `include=record` (the records the pages carry, no read per change) and must end
 * with the same state each time. A third keeps every player's transactions: it copies them through the bulk read
 * (`GET /transactions`, along its Link headers) and follows with `include=record`; each time it must equal a fresh
 * copy and the table.
 */

const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 50; // the live tests' NATS port; files run one by one
const hasNats = natsServerAvailable();
if (!hasNats && process.env.CI === "true")
  throw new Error("nats-server is not on PATH; CI requires the live tests");

const PLAYER = "P000003";
const UNIVERSE = Array.from({ length: 500 }, (_, i) => `P${String(i + 1).padStart(6, "0")}`);

describe.runIf(hasNats)("following the change feed reaches the state of a full re-read", () => {
  let nats: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  let pool: pg.Pool;
  let kit: RouteKit;
  let publisherNc: NatsConnection;
  let ingest: { stop(): Promise<void> } | undefined;
  let dir: string;

  beforeAll(async () => {
    nats = createNatsServer(PORT);
    await nats.start();
    db = await freshTestDatabase(inject("databaseKind"), "feed_sync");
    pool = createPgPool(db.url, { max: 2 });
    kit = await createRouteKit(db.url);
    dir = await mkdtemp(path.join(tmpdir(), "feed-sync-"));
    publisherNc = await connect({ servers: nats.url });
    const { jetstreamManager } = await import("@nats-io/jetstream");
    await ensureWalletStream(await jetstreamManager(publisherNc));
    ingest = await startQuietIngest(nats.url, db.url, pool);
  });

  afterAll(async () => {
    await ingest?.stop();
    await publisherNc?.close();
    await closeApp();
    await pool?.end();
    await db?.stop();
    await nats?.destroy();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  /** What the consumer has applied: the version of a transaction (0 when absent). */
  async function waitForVersion(
    table: "players" | "transactions",
    id: string,
    version: number,
  ): Promise<void> {
    const until = Date.now() + 30_000;
    while (Date.now() < until) {
      const { rows } = await pool.query<{ v: number }>(`SELECT version AS v FROM ${table} WHERE id = $1`, [
        id,
      ]);
      if ((rows[0]?.v ?? 0) >= version) return;
      await new Promise((r) => setTimeout(r, 100));
    }
    throw new Error(`${table} ${id} never reached version ${version}`);
  }

  async function publishLiveEvents(): Promise<void> {
    const js = jetstream(publisherNc);
    const profile = (await kit.call("GET", `/api/v1/players/${PLAYER}`)).json as Record<string, unknown>;
    const changed = { ...profile, kyc_status: "rejected", blocked: true, version: 1 };
    await js.publish("wallet.player", JSON.stringify(changed), { msgID: `${PLAYER}:1` });
    const tx = (patch: Record<string, unknown>, amount: string) =>
      txLine({ player_id: PLAYER, payment_method: "Visa", ...patch }, amount);
    // A withdrawal requested, then completed (a later version of the same id).
    const requested = {
      id: "TLIVE-W1",
      event_type: "withdrawal",
      event_name: "Bank Withdrawal",
      status: "pending",
    };
    await js.publish("wallet.transaction", tx({ ...requested, version: 1 }, "-25.5"), {
      msgID: "TLIVE-W1:1",
    });
    const completedAt = new Date().toISOString();
    await js.publish(
      "wallet.transaction",
      tx({ ...requested, status: "completed", completed_at: completedAt, version: 2 }, "-25.5"),
      { msgID: "TLIVE-W1:2" },
    );
    // A deposit dated a year ago that arrives now: a scan from the newest `date` would never see it.
    const backdated = "2025-11-01T08:00:00.000Z";
    await js.publish(
      "wallet.transaction",
      tx(
        {
          id: "TLIVE-D1",
          date: backdated,
          created_at: backdated,
          completed_at: backdated,
          status: "completed",
          version: 1,
        },
        "100.12345678",
      ),
      { msgID: "TLIVE-D1:1" },
    );
    await waitForVersion("players", PLAYER, 1);
    await waitForVersion("transactions", "TLIVE-W1", 2);
    await waitForVersion("transactions", "TLIVE-D1", 1);
  }

  async function importFiles(): Promise<void> {
    const players = path.join(dir, "players.ndjson");
    const transactions = path.join(dir, "transactions.ndjson");
    const newcomer = {
      ...((await kit.call("GET", `/api/v1/players/${PLAYER}`)).json as object),
      id: "P000999",
    };
    await writeFile(players, `${JSON.stringify(newcomer)}\n`);
    const backdated = "2024-02-29T12:00:00.000Z";
    await writeFile(
      transactions,
      [
        txLine(
          {
            id: "TIMP-1",
            player_id: PLAYER,
            date: backdated,
            created_at: backdated,
            completed_at: backdated,
          },
          "42",
        ),
        txLine({ id: "TIMP-2", player_id: PLAYER, status: "pending" }, "-10"),
        txLine({ id: "TIMP-3", player_id: "P000999" }, "5"),
      ].join("\n"),
    );
    const copy = inject("databaseKind") === "postgres";
    const client = await pool.connect();
    try {
      const summary = await importNdjson(client, {
        playersFile: players,
        transactionsFile: transactions,
        copy,
        parseWorkers: 0,
      });
      expect(summary.committed).toBe(true);
      expect(summary.transactions.inserted).toBe(3);
    } finally {
      client.release();
    }
  }

  it("syncs 500 profiles and a player's transactions through seed, db:generate, db:import and the live consumer", async () => {
    await seedDemoData(pool);
    const syncer = new ChangeFeedSyncer(kit, UNIVERSE, PLAYER);
    const recorded = new ChangeFeedSyncer(kit, UNIVERSE, PLAYER, { records: true });

    await syncer.fullSync();
    await recorded.fullSync();
    expect(syncer.state.profiles.size).toBe(240); // the demo data's players
    const ledgerToken = await kit.token("ledger-copy", { scope: "players:read transactions:bulk" });
    const ledger = new LedgerSyncer(kit, ledgerToken);
    await ledger.fullSync();
    /** The ledger copy equals a fresh copy through the bulk read, and holds every row of the table. */
    const expectLedgerExact = async () => {
      const fresh = new LedgerSyncer(kit, ledgerToken);
      await fresh.fullSync();
      const { rows } = await pool.query<{ n: string }>("SELECT count(*) AS n FROM transactions");
      expect(fresh.rows.size).toBe(Number(rows[0]?.n));
      expect(Object.fromEntries(ledger.rows)).toEqual(Object.fromEntries(fresh.rows));
    };
    await expectLedgerExact();

    const client = await pool.connect();
    try {
      await generateDataset(client, {
        players: 600,
        transactions: 30_000,
        copy: inject("databaseKind") === "postgres",
      });
    } finally {
      client.release();
    }
    await syncer.follow();
    await recorded.follow();
    await ledger.follow();
    await expectLedgerExact();
    expect(syncer.stats.resets).toBe(1); // db:generate replaced everything: one reset, one full read
    expect(recorded.stats.resets).toBe(1);
    const recordedAfterReset = { ...recorded.stats };
    const afterReset = { ...syncer.stats };

    await importFiles();
    await publishLiveEvents();
    const ledgerCopies = ledger.stats.fullCopies;
    await ledger.follow();
    // Imports and live events follow from the pages' records alone: no full copy again.
    expect(ledger.stats.fullCopies).toBe(ledgerCopies);
    expect(ledger.rows.has("TLIVE-D1")).toBe(true);
    expect(ledger.rows.has("TIMP-3")).toBe(true);
    await expectLedgerExact();
    const applied = await syncer.follow();
    expect(applied).toBeGreaterThan(0);
    expect(await recorded.follow()).toBeGreaterThan(0);
    // With records, the pages alone: no profile or transaction read.
    expect(recorded.stats.profileReads).toBe(recordedAfterReset.profileReads);
    expect(recorded.stats.transactionReads).toBe(recordedAfterReset.transactionReads);
    expect(syncer.stats.resets).toBe(1);
    // Incremental: a handful of reads, not the 500 profiles again.
    expect(syncer.stats.profileReads - afterReset.profileReads).toBeLessThan(10);
    expect(syncer.state.transactions.has("TLIVE-D1")).toBe(true);
    expect(syncer.state.transactions.has("TIMP-1")).toBe(true);

    const truth = new ChangeFeedSyncer(kit, UNIVERSE, PLAYER);
    await truth.fullSync();
    expect(syncer.state.profiles.size).toBe(500);
    expect(Object.fromEntries(syncer.state.profiles)).toEqual(Object.fromEntries(truth.state.profiles));
    expect(Object.fromEntries(syncer.state.transactions)).toEqual(
      Object.fromEntries(truth.state.transactions),
    );
    expect(Object.fromEntries(recorded.state.profiles)).toEqual(Object.fromEntries(truth.state.profiles));
    expect(Object.fromEntries(recorded.state.transactions)).toEqual(
      Object.fromEntries(truth.state.transactions),
    );
    const completed = syncer.state.transactions.get("TLIVE-W1") as { status: string };
    expect(completed.status).toBe("completed");
    expect(syncer.stats.restarts).toBe(0);

    /** A change only a full read can bring once its entry is gone: the profile's `blocked` flipped. */
    const flip = async (id: string): Promise<boolean> => {
      const { rows } = await pool.query<{ blocked: boolean }>(
        "UPDATE players SET blocked = NOT blocked WHERE id = $1 RETURNING blocked",
        [id],
      );
      return rows[0]?.blocked ?? false;
    };
    const blockedIn = (id: string) => (syncer.state.profiles.get(id) as { blocked: boolean }).blocked;
    const expectFullReadState = async () => {
      const again = new ChangeFeedSyncer(kit, UNIVERSE, PLAYER);
      await again.fullSync();
      expect(Object.fromEntries(syncer.state.profiles)).toEqual(Object.fromEntries(again.state.profiles));
      expect(Object.fromEntries(syncer.state.transactions)).toEqual(
        Object.fromEntries(again.state.transactions),
      );
      expect(Object.fromEntries(recorded.state.profiles)).toEqual(Object.fromEntries(again.state.profiles));
      expect(Object.fromEntries(recorded.state.transactions)).toEqual(
        Object.fromEntries(again.state.transactions),
      );
    };

    // Pruned past the syncer's position: the entry of the change it has not seen is deleted.
    const pruned = await flip("P000010");
    await pool.query("DELETE FROM changes WHERE position <= (SELECT max(position) FROM changes)");
    await syncer.follow();
    await recorded.follow();
    await ledger.follow();
    await expectLedgerExact();
    expect(syncer.stats.restarts).toBe(1);
    expect(recorded.stats.restarts).toBe(1);
    expect(blockedIn("P000010")).toBe(pruned);
    await expectFullReadState();

    // A feed reset (as after restoring a file-system snapshot): its positions mean nothing any more.
    const feedBefore = syncer.feed;
    await pool.query("SELECT rotate_change_feed()");
    const rotated = await flip("P000011");
    await syncer.follow();
    await recorded.follow();
    await ledger.follow();
    await expectLedgerExact();
    expect(syncer.stats.restarts).toBe(2);
    expect(recorded.stats.restarts).toBe(2);
    expect(syncer.feed).not.toBe(feedBefore);
    expect(blockedIn("P000011")).toBe(rotated);
    await expectFullReadState();
  }, 600_000);
});
