import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import type { NatsConnection } from "@nats-io/transport-node";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  WEBHOOK_DECIMALS,
  type WebhookEventType,
  webhookEventSchema,
} from "@/features/webhook-events/schema/webhook-payloads";
import { parseWire } from "@/platform/client/wire-codec";
import { createPgPool } from "@/platform/db/pg-pool";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { applyBatch } from "@/workers/ingest/apply-batch";
import { addEndpoint, replayDelivery, setEndpointActive } from "@/workers/webhooks/admin";
import { parseDispatchConfig } from "@/workers/webhooks/config";
import { type Dispatcher, startDispatcher } from "@/workers/webhooks/dispatcher";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { createNatsServer, type NatsServer, natsServerAvailable } from "../support/nats-server.ts";
import type { Publisher } from "../support/publisher.ts";
import { type SimPlayer, type SimTransaction, WalletSim } from "../support/wallet-sim.ts";
import { connectPublisher, quietLog, startQuietIngest } from "./live-test-kit.ts";
import { startScriptProcess } from "./script-process.ts";
import { createReceiver, type Receiver, verifyWebhook, waitFor } from "./webhook-receiver.ts";

/*
 * Webhooks end to end (docs/webhooks.md): real wallet events through a throwaway NATS JetStream and the ingest
 * consumer into PostgreSQL, the outbox written in the batch's transaction, the dispatcher POSTing to real HTTP
 * receivers on loopback that verify each signature with the documented recipe. PostgreSQL only: a delivery holds
 * its row lock (and transaction) while it POSTs, which the embedded database's single connection cannot share.
 */

// Ports of this file: NATS at E2E_POSTGRES_PORT + 70, receivers from + 71 to + 80 (the ingest tests use + 50).
const PORT_BASE = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 70;
const ALL: WebhookEventType[] = [
  "player.kyc_status_changed",
  "player.blocked",
  "withdrawal.requested",
  "transaction.large",
];
const dispatchEnv = (url: string) => ({
  DATABASE_URL: url,
  WEBHOOK_RETRY_BASE_MS: "100",
  WEBHOOK_RETRY_MAX_MS: "400",
  WEBHOOK_MAX_ATTEMPTS: "5",
  WEBHOOK_POLL_MS: "50",
  WEBHOOK_TIMEOUT_MS: "3000",
  WEBHOOK_CONCURRENCY: "2",
});

const runs = natsServerAvailable() && inject("databaseKind") === "postgres";

describe.runIf(runs)("webhooks: outbox in the ingest batch, signed at-least-once delivery", () => {
  let nats: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  let pool: pg.Pool;
  let dispatchPool: pg.Pool;
  let ingest: { stop(): Promise<void> } | undefined;
  let dispatcher: Dispatcher | null = null;
  let pub: { nc: NatsConnection; publisher: Publisher };
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    nats = createNatsServer(PORT_BASE);
    await nats.start();
    db = await freshTestDatabase("postgres", "webhooks");
    pool = createPgPool(db.url, { max: 3 });
    dispatchPool = createPgPool(db.url, { max: 3 });
    ingest = await startQuietIngest(nats.url, db.url, pool);
    pub = await connectPublisher(nats.url);
  });

  afterAll(async () => {
    await dispatcher?.stop();
    await ingest?.stop();
    await pub?.nc.close();
    for (const r of receivers) await r.close().catch(() => undefined);
    await dispatchPool?.end();
    await pool?.end();
    await db?.stop();
    await nats?.destroy();
  });

  const startInProcess = () => {
    dispatcher = startDispatcher(
      { config: parseDispatchConfig(dispatchEnv(db.url)), log: quietLog },
      dispatchPool,
    );
  };
  /** Waits until the endpoint's delivery is in `status`. */
  const deliveryReaches = (endpointId: string, status: "delivered" | "failed") =>
    waitFor(
      async () =>
        (
          await pool.query("SELECT 1 FROM webhook_deliveries WHERE endpoint_id = $1 AND status = $2", [
            endpointId,
            status,
          ])
        ).rowCount === 1,
      `the ${status} state`,
    );
  const stopInProcess = async () => {
    await dispatcher?.stop();
    dispatcher = null;
  };

  async function receiverOn(offset: number, respond?: Receiver["respond"], listen = true) {
    const r = createReceiver(PORT_BASE + offset, respond);
    receivers.push(r);
    if (listen) await r.listen();
    return r;
  }

  /** An endpoint for this test only (the earlier tests' endpoints are disabled by then). */
  async function endpointFor(r: Receiver, types = ALL, minAmount = "500") {
    return addEndpoint({ url: r.url, eventTypes: types, minAmount }, pool);
  }

  /** A new player, applied; returns its profile (version 1). */
  async function newPlayer(prefix: string): Promise<SimPlayer> {
    const sim = new WalletSim({ players: 1, prefix, seed: prefix.charCodeAt(0) });
    const [event] = sim.playerEvents();
    if (event?.subject !== "wallet.player") throw new Error("no player event");
    await pub.publisher.publish(event);
    await waitFor(
      async () => (await pool.query("SELECT 1 FROM players WHERE id = $1", [event.record.id])).rowCount === 1,
      "the player",
    );
    return event.record;
  }

  const publishPlayer = (record: SimPlayer) => pub.publisher.publish({ subject: "wallet.player", record });

  function transaction(player: SimPlayer, over: Partial<SimTransaction> & { id: string }): SimTransaction {
    const now = new Date().toISOString();
    return {
      player_id: player.id,
      date: now,
      event_type: "deposit",
      event_name: "Card Deposit",
      event_note: null,
      amount: "10",
      currency: player.currency,
      payment_method: "card",
      created_by: "System",
      created_at: now,
      completed_at: now,
      status: "completed",
      version: 1,
      ...over,
    };
  }
  const publishTransaction = (record: SimTransaction) =>
    pub.publisher.publish({ subject: "wallet.transaction", record });

  /** The received bodies, parsed with the payload schemas (exact amounts), for the given player. */
  function eventsOf(r: Receiver, playerId: string) {
    return r.requests
      .map((req) =>
        webhookEventSchema.parse(parseWire(req.body, WEBHOOK_DECIMALS, (d) => new ExactNumber(d))),
      )
      .filter((e) => e.data.player_id === playerId);
  }

  it("delivers each event type from real events applied by the consumer, signed as documented", async () => {
    const r = await receiverOn(1);
    const { id: endpointId, secret } = await endpointFor(r);
    startInProcess();
    const player = await newPlayer("WA");
    await publishPlayer({ ...player, version: 2, kyc_status: "rejected" as "approved" });
    await waitFor(
      async () =>
        (await pool.query("SELECT version FROM players WHERE id = $1", [player.id])).rows[0]?.version === 2,
      "version 2 applied",
    );
    await publishPlayer({
      ...player,
      version: 3,
      kyc_status: "rejected" as "approved",
      blocked: true,
      withdrawal_status: "self_excluded",
    });
    await publishTransaction(
      transaction(player, {
        id: "WA-T1",
        event_type: "withdrawal",
        event_name: "Bank Withdrawal",
        amount: "-120.5",
        status: "pending",
        completed_at: null,
      }),
    );
    await publishTransaction(transaction(player, { id: "WA-T2", amount: "123456789012.12345678" }));
    await publishTransaction(
      transaction(player, {
        id: "WA-T3",
        event_type: "bet",
        event_name: "Casino Bet",
        amount: "-5",
        payment_method: null,
      }),
    );
    await waitFor(() => eventsOf(r, player.id).length >= 4, "four events");
    await new Promise((res) => setTimeout(res, 300)); // nothing more arrives (the small bet is no event)
    const events = eventsOf(r, player.id);
    expect(events.map((e) => e.type).sort()).toEqual([...ALL].sort());
    for (const req of r.requests) expect(verifyWebhook(secret, req.headers, req.body)).toBe(true);
    for (const req of r.requests) expect(req.headers["webhook-id"]).toBe(JSON.parse(req.body).id);
    const byType = Object.fromEntries(events.map((e) => [e.type, e]));
    expect(byType["player.kyc_status_changed"]?.data).toEqual({
      player_id: player.id,
      kyc_status: "rejected",
      previous_kyc_status: "approved",
      version: 2,
    });
    expect(byType["player.blocked"]?.data).toMatchObject({
      blocked: true,
      previous_blocked: false,
      withdrawal_status: "self_excluded",
      previous_withdrawal_status: "allowed",
      version: 3,
    });
    expect(byType["withdrawal.requested"]?.data).toMatchObject({
      id: "WA-T1",
      status: "pending",
      completed_at: null,
    });
    // The amount arrives exact: 20 significant digits, as a JSON number.
    expect(r.requests.find((q) => q.body.includes("WA-T2"))?.body).toContain(
      '"amount":123456789012.12345678,',
    );
    const { rows } = await pool.query(
      "SELECT status, attempts FROM webhook_deliveries WHERE endpoint_id = $1",
      [endpointId],
    );
    expect(rows).toEqual(Array(4).fill({ status: "delivered", attempts: 1 }));
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("the CRM's events, to an endpoint that opted in: created, updated (which fields), status changed", async () => {
    const r = await receiverOn(9);
    const crm: WebhookEventType[] = ["player.created", "player.updated", "transaction.status_changed"];
    const { id: endpointId, secret } = await endpointFor(r, crm);
    // Beside it, an endpoint of the risk service's, subscribed to the four risk types as before issue 41.
    const risk = await receiverOn(10);
    const { id: riskId } = await endpointFor(risk, ALL);
    const player = await newPlayer("WI");
    await publishPlayer({
      ...player,
      version: 2,
      email: "new.address@example.com",
      settings: { ...player.settings, want_bonus: !player.settings.want_bonus },
    });
    const pending = transaction(player, {
      id: "WI-T1",
      event_type: "withdrawal",
      event_name: "Bank Withdrawal",
      amount: "-40",
      status: "pending",
      completed_at: null,
    });
    await publishTransaction(pending);
    await waitFor(
      async () => (await pool.query("SELECT 1 FROM transactions WHERE id = 'WI-T1'")).rowCount === 1,
      "WI-T1",
    );
    const completedAt = new Date().toISOString();
    await publishTransaction({ ...pending, status: "completed", completed_at: completedAt, version: 2 });
    // A later version with the same status and a profile version with nothing changed: no event.
    await publishTransaction({ ...pending, status: "completed", completed_at: completedAt, version: 3 });
    await waitFor(() => eventsOf(r, player.id).length >= 3, "three events");
    await new Promise((res) => setTimeout(res, 300));
    const events = eventsOf(r, player.id);
    expect(events.map((e) => e.type).sort()).toEqual([...crm].sort());
    for (const q of r.requests) expect(verifyWebhook(secret, q.headers, q.body)).toBe(true);
    const byType = Object.fromEntries(events.map((e) => [e.type, e.data]));
    expect(byType["player.created"]).toMatchObject({
      player_id: player.id,
      version: 1,
      profile: { id: player.id, email: player.email, settings: player.settings, version: 1 },
    });
    expect(byType["player.updated"]).toMatchObject({
      player_id: player.id,
      version: 2,
      previous_version: 1,
      changed_fields: ["email", "settings.want_bonus"],
      profile: { email: "new.address@example.com", version: 2 },
    });
    expect(byType["transaction.status_changed"]).toMatchObject({
      id: "WI-T1",
      previous_status: "pending",
      status: "completed",
      version: 2,
    });
    // The new types are opt-in: the risk endpoint got its withdrawal.requested and none of them.
    await waitFor(() => eventsOf(risk, player.id).length >= 1, "the risk endpoint's event");
    expect(eventsOf(risk, player.id).map((e) => e.type)).toEqual(["withdrawal.requested"]);
    await setEndpointActive({ id: endpointId, active: false }, pool);
    await setEndpointActive({ id: riskId, active: false }, pool);
  });

  it("writes no outbox row for a batch that rolls back", async () => {
    const r = await receiverOn(2);
    const { id: endpointId } = await endpointFor(r);
    const player = await newPlayer("WB");
    const client = await pool.connect();
    try {
      await client.query("BEGIN");
      const t = transaction(player, { id: "WB-T1", amount: "9000" });
      await applyBatch(client, {
        players: [],
        transactions: [{ ...t, amount: new ExactNumber(t.amount) } as never],
        progress: null,
      });
      const inside = await client.query(
        "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND payload LIKE '%\"WB-T1\"%'",
        [endpointId],
      );
      expect(inside.rows[0].n).toBe(1); // written in the batch's transaction…
      await client.query("ROLLBACK");
    } finally {
      client.release();
    }
    const after = await pool.query(
      "SELECT count(*)::int AS n FROM webhook_deliveries WHERE endpoint_id = $1 AND payload LIKE '%\"WB-T1\"%'",
      [endpointId],
    );
    expect(after.rows[0].n).toBe(0); // …and gone with it
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("retries a 500 twice then succeeds: three attempts, one event id, valid signatures, logged", async () => {
    const r = await receiverOn(3, (i) => (i < 2 ? 500 : 200));
    const { id: endpointId, secret } = await endpointFor(r, ["transaction.large"]);
    const player = await newPlayer("WC");
    await publishTransaction(transaction(player, { id: "WC-T1", amount: "777" }));
    await waitFor(() => r.requests.some((q) => q.answered === 200), "the third attempt");
    await deliveryReaches(endpointId, "delivered");
    expect(r.requests.map((q) => q.answered)).toEqual([500, 500, 200]);
    expect(new Set(r.requests.map((q) => q.headers["webhook-id"])).size).toBe(1);
    for (const q of r.requests) expect(verifyWebhook(secret, q.headers, q.body)).toBe(true);
    const log = await pool.query(
      `SELECT a.attempt, a.status_code, a.error, a.next_attempt_at IS NOT NULL AS retry FROM webhook_attempts a
       JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1 ORDER BY a.id`,
      [endpointId],
    );
    expect(log.rows).toEqual([
      { attempt: 1, status_code: 500, error: "HTTP 500", retry: true },
      { attempt: 2, status_code: 500, error: "HTTP 500", retry: true },
      { attempt: 3, status_code: 200, error: null, retry: false },
    ]);
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("keeps trying a receiver that is down, and delivers once it comes up", async () => {
    const r = await receiverOn(4, () => 200, false);
    const { id: endpointId, secret } = await endpointFor(r, ["transaction.large"]);
    const player = await newPlayer("WD");
    await publishTransaction(
      transaction(player, {
        id: "WD-T1",
        amount: "-2500",
        event_type: "withdrawal",
        event_name: "Bank Withdrawal",
      }),
    );
    const attempts = async () =>
      (
        await pool.query(
          `SELECT a.error FROM webhook_attempts a JOIN webhook_deliveries d ON d.id = a.delivery_id WHERE d.endpoint_id = $1`,
          [endpointId],
        )
      ).rows as { error: string }[];
    await waitFor(async () => (await attempts()).length >= 2, "two refused attempts");
    expect((await attempts())[0]?.error).toBe("network error: ECONNREFUSED");
    await r.listen();
    await waitFor(() => r.requests.length === 1, "the delivery after the receiver came up");
    expect(verifyWebhook(secret, r.requests[0]?.headers ?? {}, r.requests[0]?.body ?? "")).toBe(true);
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("the recipe rejects a bad signature, a tampered body, another secret and a stale timestamp", async () => {
    const r = await receiverOn(5);
    const { id: endpointId, secret } = await endpointFor(r, ["transaction.large"]);
    const player = await newPlayer("WE");
    await publishTransaction(transaction(player, { id: "WE-T1", amount: "600" }));
    await waitFor(() => r.requests.length === 1, "the delivery");
    const received = r.requests[0];
    if (!received) throw new Error("no request");
    const { headers, body } = received;
    const timestamp = Number(headers["webhook-timestamp"]);
    expect(verifyWebhook(secret, headers, body)).toBe(true);
    expect(verifyWebhook(secret, headers, body.replace('"amount":600', '"amount":6000'))).toBe(false);
    expect(verifyWebhook(secret, { ...headers, "webhook-signature": "v1,AAAA" }, body)).toBe(false);
    expect(verifyWebhook(secret, { ...headers, "webhook-id": "another" }, body)).toBe(false);
    expect(verifyWebhook("whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw", headers, body)).toBe(false);
    expect(verifyWebhook(secret, headers, body, timestamp + 301)).toBe(false);
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("marks a delivery failed after the last attempt; replay sends the same event again", async () => {
    const r = await receiverOn(6, () => 503);
    const { id: endpointId, secret } = await endpointFor(r, ["transaction.large"]);
    const player = await newPlayer("WF");
    await publishTransaction(transaction(player, { id: "WF-T1", amount: "10000" }));
    const delivery = async () =>
      (
        await pool.query("SELECT id::text, status, attempts FROM webhook_deliveries WHERE endpoint_id = $1", [
          endpointId,
        ])
      ).rows[0];
    await waitFor(async () => (await delivery())?.status === "failed", "the failed delivery");
    expect(r.requests).toHaveLength(5);
    r.respond = () => 200;
    expect(await replayDelivery({ id: (await delivery()).id }, pool)).toBe(true);
    await waitFor(async () => (await delivery())?.status === "delivered", "the replayed delivery");
    expect(r.requests).toHaveLength(6);
    expect(new Set(r.requests.map((q) => q.headers["webhook-id"])).size).toBe(1);
    expect(r.requests[5]?.body).toBe(r.requests[0]?.body);
    expect(verifyWebhook(secret, r.requests[5]?.headers ?? {}, r.requests[5]?.body ?? "")).toBe(true);
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("refuses to deliver to a URL that fails validation", async () => {
    const r = await receiverOn(7);
    const { id: endpointId } = await endpointFor(r, ["transaction.large"]);
    await pool.query("UPDATE webhook_endpoints SET url = 'file:///etc/passwd' WHERE id = $1", [endpointId]);
    const player = await newPlayer("WG");
    await publishTransaction(transaction(player, { id: "WG-T1", amount: "10000" }));
    await deliveryReaches(endpointId, "failed");
    const { rows } = await pool.query(
      "SELECT last_error, attempts FROM webhook_deliveries WHERE endpoint_id = $1",
      [endpointId],
    );
    expect(rows[0]).toEqual({
      last_error: "refused: scheme file: refused: only http and https",
      attempts: 1,
    });
    expect(r.requests).toHaveLength(0);
    await setEndpointActive({ id: endpointId, active: false }, pool);
  });

  it("npm run webhooks: add prints the secret once; list never shows it; bad input is refused", async () => {
    const root = path.resolve(import.meta.dirname, "../..");
    const cli = (...args: string[]) =>
      promisify(execFile)(process.execPath, ["--import", "tsx", "workers/webhooks/admin-main.ts", ...args], {
        cwd: root,
        env: { ...process.env, DATABASE_URL: db.url },
      });
    const added = await cli(
      "add",
      "--url",
      "https://risk.example.com/in",
      "--events",
      "transaction.large",
      "--min-amount",
      "250.5",
    );
    const { id, secret } = JSON.parse(added.stdout) as { id: string; secret: string };
    expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
    const listed = await cli("list");
    expect(listed.stdout).not.toContain(secret);
    expect(listed.stdout).not.toContain("whsec_");
    const mine = (JSON.parse(listed.stdout) as { id: string; min_amount: string; active: boolean }[]).find(
      (e) => e.id === id,
    );
    expect(mine).toMatchObject({ min_amount: "250.5", active: true });
    expect((await cli("disable", id)).stdout).toContain('"active": false');
    const refused = await cli(
      "add",
      "--url",
      "ftp://risk.example.com/",
      "--events",
      "transaction.large",
    ).then(
      () => null,
      (e: { code: number; stderr: string }) => e,
    );
    expect(refused?.code).toBe(2);
    expect(refused?.stderr).toContain("url: scheme ftp: refused: only http and https");
  }, 180_000); // four processes of tsx on a loaded machine

  it("kill -9 of the dispatcher mid-delivery loses nothing: the event is delivered after a restart", async () => {
    await stopInProcess();
    const r = await receiverOn(8, (i) => (i === 0 ? "hang" : 200));
    const { id: endpointId, secret } = await endpointFor(r, ["transaction.large"]);
    const player = await newPlayer("WH");
    await publishTransaction(transaction(player, { id: "WH-T1", amount: "50000" }));
    const first = startScriptProcess("webhooks-dispatch", {
      ...dispatchEnv(db.url),
      WEBHOOK_TIMEOUT_MS: "30000",
    });
    await waitFor(() => r.requests.length === 1, "the first POST (left hanging)");
    await first.kill("SIGKILL");
    const second = startScriptProcess("webhooks-dispatch", dispatchEnv(db.url));
    try {
      await waitFor(() => r.requests.some((q) => q.answered === 200), "the delivery after the restart");
      await deliveryReaches(endpointId, "delivered");
    } finally {
      await second.kill("SIGTERM");
    }
    expect(second.child.exitCode).toBe(0); // SIGTERM: clean exit
    expect(new Set(r.requests.map((q) => q.headers["webhook-id"])).size).toBe(1);
    for (const q of r.requests) expect(verifyWebhook(secret, q.headers, q.body)).toBe(true);
  }, 180_000); // two dispatcher processes started by tsx
});
