import { type JetStreamClient, jetstream } from "@nats-io/jetstream";
import type { NatsConnection } from "@nats-io/transport-node";
import type pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { createPgPool } from "@/platform/db/pg-pool";
import { resetEnvCache } from "@/platform/env/env";
import { getIngestStatus } from "@/workers/ingest/ingest-status";
import { freshTestDatabase } from "../support/fresh-test-database.ts";
import { createNatsServer, type NatsServer, natsServerAvailable } from "../support/nats-server.ts";
import type { Publisher } from "../support/publisher.ts";
import { WalletSim } from "../support/wallet-sim.ts";
import { connectPublisher, readDeadLetters, startQuietIngest } from "./live-test-kit.ts";

/*
 * Events that are valid one by one but that the read model cannot take: a deposit whose sum overflows the
 * balance's numeric(20,8), sharing its batch with good events, and versions forged far past the stored one. Each
 * goes to wallet.dead with its reason while everything else is applied in order; health shows the dead letter.
 */

// Beside the live tests' (+50..52), the ingest status test's (+33) and the HAProxy cluster's (+30..33).
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 36;
const hasNats = natsServerAvailable();
if (!hasNats && process.env.CI === "true")
  throw new Error("nats-server is not on PATH; CI requires the live tests");

/** A transaction event as the wallet writes it; `amount` a JSON number written as given (exact digits). */
function transactionJson(t: {
  id: string;
  player_id: string;
  event_type: "deposit" | "withdrawal";
  amount: string;
  status: "pending" | "completed";
  version: number;
  currency: string;
}): string {
  const at = "2026-11-26T00:00:00.000Z";
  const record = {
    id: t.id,
    player_id: t.player_id,
    date: at,
    event_type: t.event_type,
    event_name: t.event_type === "deposit" ? "Deposit" : "Withdrawal",
    event_note: null,
    currency: t.currency,
    payment_method: "Card",
    created_by: "System",
    created_at: at,
    completed_at: t.status === "completed" ? at : null,
    status: t.status,
    version: t.version,
    amount: 0,
  };
  return JSON.stringify(record).replace(/"amount":0}$/, `"amount":${t.amount}}`);
}

async function publish(js: JetStreamClient, subject: string, json: string, version: number) {
  const { id } = JSON.parse(json) as { id: string };
  await js.publish(subject, json, { msgID: `${id}:${version}` });
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let value = await read();
  while (!done(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 200));
    value = await read();
  }
  return value;
}

describe.runIf(hasNats)("npm run ingest: events the read model cannot take go to wallet.dead", () => {
  let nats: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  let pool: pg.Pool;
  let reader: pg.Pool;
  let prisma: PrismaClient;
  let ingest: { stop(): Promise<void> } | undefined;
  let pub: { nc: NatsConnection; publisher: Publisher };
  const saved = { ...process.env };

  beforeAll(async () => {
    nats = createNatsServer(PORT);
    await nats.start();
    db = await freshTestDatabase(inject("databaseKind"), "poison");
    // One connection for the consumer, the test reads on its own: on the embedded PGlite all connections share one
    // session, and a second consumer connection would prepare the outbox's named statements a second time there.
    pool = createPgPool(db.url, { max: 1 });
    reader = createPgPool(db.url, { max: 1 });
    prisma = createPrismaClient(db.url, 1);
    pub = await connectPublisher(nats.url);
  });

  afterAll(async () => {
    process.env = saved;
    resetEnvCache();
    await ingest?.stop();
    await pub?.nc.close();
    await pool?.end();
    await reader?.end();
    await prisma?.$disconnect();
    await db?.stop();
    await nats?.destroy();
  });

  it("a deposit whose sum overflows the balance is dead-lettered alone; its batch's good events apply in order", async () => {
    const sim = new WalletSim({ players: 2, prefix: "Q", seed: 3 });
    const players = sim.playerEvents();
    for (const e of players) await pub.publisher.publish(e);
    await pub.publisher.settle();
    const [q1, q2] = players.map((e) => e.record as { id: string; currency: string; version: number });
    if (!q1 || !q2) throw new Error("two players");
    const js = jetstream(pub.nc);
    const tx = (t: Omit<Parameters<typeof transactionJson>[0], "currency">, currency: string) =>
      transactionJson({ ...t, currency });
    const poison = tx(
      {
        id: "Q-POISON",
        player_id: q1.id,
        event_type: "deposit",
        amount: "999999999999.99999999",
        status: "completed",
        version: 1,
      },
      q1.currency,
    );
    // All published before the consumer starts: one batch holds them all, the poison in the middle.
    const events: [string, string, number][] = [
      [
        "wallet.transaction",
        tx(
          {
            id: "Q-1",
            player_id: q1.id,
            event_type: "deposit",
            amount: "100",
            status: "completed",
            version: 1,
          },
          q1.currency,
        ),
        1,
      ],
      ["wallet.transaction", poison, 1],
      [
        "wallet.transaction",
        tx(
          {
            id: "Q-2",
            player_id: q2.id,
            event_type: "deposit",
            amount: "50",
            status: "completed",
            version: 1,
          },
          q2.currency,
        ),
        2,
      ],
      [
        "wallet.transaction",
        tx(
          {
            id: "Q-3",
            player_id: q1.id,
            event_type: "withdrawal",
            amount: "-30",
            status: "pending",
            version: 1,
          },
          q1.currency,
        ),
        1,
      ],
      [
        "wallet.transaction",
        tx(
          {
            id: "Q-3",
            player_id: q1.id,
            event_type: "withdrawal",
            amount: "-30",
            status: "completed",
            version: 2,
          },
          q1.currency,
        ),
        2,
      ],
      [
        "wallet.player",
        JSON.stringify({ ...q1, name: "Quinn Second", version: q1.version + 1 }),
        q1.version + 1,
      ],
    ];
    for (const [subject, json, version] of events) await publish(js, subject, json, version);
    const warnings: string[] = [];
    ingest = await startQuietIngest(
      nats.url,
      db.url,
      pool,
      { INGEST_BATCH_SIZE: "100" },
      { info: () => undefined, warn: (message) => void warnings.push(message) },
    );

    const figures = () =>
      reader
        .query<{ id: string; name: string; cash_balance: string; ltd: string; ltw: string }>(
          "SELECT id, name, cash_balance::text, ltd::text, ltw::text FROM players WHERE id LIKE 'Q%' ORDER BY id",
        )
        .then((r) => r.rows);
    const rows = await until(
      figures,
      (r) => r[0]?.name === "Quinn Second" && r[1]?.cash_balance !== "0.00000000",
      30_000,
    );
    expect(rows).toEqual([
      {
        id: q1.id,
        name: "Quinn Second",
        cash_balance: "70.00000000",
        ltd: "100.00000000",
        ltw: "30.00000000",
      },
      expect.objectContaining({ id: q2.id, cash_balance: "50.00000000", ltd: "50.00000000" }),
    ]);
    const transactions = await reader.query<{ id: string; status: string; version: number }>(
      "SELECT id, status::text, version FROM transactions WHERE id LIKE 'Q-%' ORDER BY id",
    );
    expect(transactions.rows).toEqual([
      { id: "Q-1", status: "completed", version: 1 },
      { id: "Q-2", status: "completed", version: 1 },
      { id: "Q-3", status: "completed", version: 2 },
    ]);
    const dead = await until(
      () => readDeadLetters(pub.nc),
      (d) => d.length >= 1,
      10_000,
    );
    expect(dead).toEqual([
      {
        data: poison,
        subject: "wallet.transaction",
        reason: expect.stringMatching(/^refused by the database: numeric field overflow \(SQLSTATE 22003\)$/),
      },
    ]);
    const progress = await until(
      () =>
        reader.query<{ dead_total: string }>("SELECT dead_total FROM ingest_progress").then((r) => r.rows),
      (r) => r[0]?.dead_total === "1",
      10_000,
    );
    expect(progress).toEqual([{ dead_total: "1" }]);

    // The poison shared a batch with good events: the database refused it, and the batch was split.
    expect(warnings).toContain(
      "ingest: the database refused a batch's data, splitting it to find the event at fault",
    );
    expect(warnings).not.toContain("ingest: batch not applied, its events will be delivered again");

    // /api/health/ingest: the dead letter counted, and why.
    process.env = { ...saved, AUTH_MODE: "demo", NATS_URL: nats.url, INGEST_CONSUMER: "read-model" };
    resetEnvCache();
    (globalThis as { ingestNats?: unknown }).ingestNats = undefined;
    const status = await getIngestStatus({ timeoutMs: 5_000 }, prisma);
    expect(status.last_applied?.dead_total).toBe(1);
    expect(status.dead_letters).toEqual({
      held: 1,
      last: {
        reason: "refused by the database: numeric field overflow (SQLSTATE 22003)",
        subject: "wallet.transaction",
        dead_lettered_at: expect.any(String),
      },
    });
  }, 60_000);

  it("a version more than 1,000 past the stored one goes to wallet.dead; the real next version applies", async () => {
    const sim = new WalletSim({ players: 1, prefix: "R", seed: 4 });
    const [player] = sim.playerEvents();
    if (!player) throw new Error("one player");
    const r1 = player.record as { id: string; currency: string; version: number; email: string | null };
    const js = jetstream(pub.nc);
    const forgedVersion = 2_147_483_647;
    const deposit = (version: number, status: "pending" | "completed", amount: string) =>
      transactionJson({
        id: "R-1",
        player_id: r1.id,
        event_type: "deposit",
        amount,
        status,
        version,
        currency: r1.currency,
      });
    const forgedPlayer = JSON.stringify({
      ...r1,
      blocked: true,
      email: "forged@example.com",
      version: forgedVersion,
    });
    const forgedDeposit = deposit(forgedVersion, "completed", "5000");
    await publish(js, "wallet.player", JSON.stringify(r1), r1.version);
    await publish(js, "wallet.transaction", deposit(1, "pending", "20"), 1);
    await publish(js, "wallet.player", forgedPlayer, forgedVersion);
    await publish(js, "wallet.transaction", forgedDeposit, forgedVersion);
    await publish(
      js,
      "wallet.player",
      JSON.stringify({ ...r1, name: "Real Two", version: r1.version + 1 }),
      r1.version + 1,
    );
    await publish(js, "wallet.transaction", deposit(2, "completed", "20"), 2);

    const read = () =>
      reader
        .query<{
          name: string;
          email: string | null;
          blocked: boolean;
          version: number;
          cash: string;
          t: number;
        }>(
          `SELECT p.name, p.email, p.blocked, p.version, p.cash_balance::text AS cash, t.version AS t
           FROM players p LEFT JOIN transactions t ON t.id = 'R-1' WHERE p.id = $1`,
          [r1.id],
        )
        .then((r) => r.rows[0]);
    const row = await until(read, (r) => r?.name === "Real Two" && r.t === 2, 30_000);
    expect(row).toEqual({
      name: "Real Two",
      email: r1.email,
      blocked: false,
      version: r1.version + 1,
      cash: "20.00000000",
      t: 2,
    });
    const dead = await until(
      () => readDeadLetters(pub.nc),
      (d) => d.length >= 3,
      10_000,
    );
    expect(dead.filter((d) => d.data === forgedPlayer || d.data === forgedDeposit)).toEqual([
      {
        data: forgedPlayer,
        subject: "wallet.player",
        reason: expect.stringMatching(
          new RegExp(
            `^version ${forgedVersion} is more than 1000 past the stored version [01] of player ${r1.id}$`,
          ),
        ),
      },
      {
        data: forgedDeposit,
        subject: "wallet.transaction",
        reason: expect.stringMatching(
          new RegExp(
            `^version ${forgedVersion} is more than 1000 past the stored version [01] of transaction R-1$`,
          ),
        ),
      },
    ]);
  }, 60_000);
  it("a database that refuses every event: a few dead letters, then retried as an outage until it takes them", async () => {
    await ingest?.stop();
    ingest = undefined;
    const sim = new WalletSim({ players: 1, prefix: "V", seed: 6 });
    const [player] = sim.playerEvents();
    if (!player) throw new Error("one player");
    const v1 = player.record as { id: string; currency: string };
    // A constraint no deposit meets: the schema at fault, not the events.
    await reader.query(
      "ALTER TABLE transactions ADD CONSTRAINT par_refuse_all CHECK (amount < -1000000) NOT VALID",
    );
    const js = jetstream(pub.nc);
    await pub.publisher.publish(player);
    const deposits = [1, 2, 3, 4, 5].map((n) =>
      transactionJson({
        id: `V-${n}`,
        player_id: v1.id,
        event_type: "deposit",
        amount: String(n),
        status: "completed",
        version: 1,
        currency: v1.currency,
      }),
    );
    for (const json of deposits) await publish(js, "wallet.transaction", json, 1);
    const warnings: string[] = [];
    ingest = await startQuietIngest(
      nats.url,
      db.url,
      pool,
      { INGEST_MAX_REFUSED_IN_A_ROW: "2" },
      { info: () => undefined, warn: (message) => void warnings.push(message) },
    );
    const braked = "ingest: the database refuses every event, not dead-lettering more until one applies";
    await until(
      async () => warnings.filter((w) => w === braked).length,
      (n) => n >= 2,
      30_000,
    );
    expect(warnings).toContain(braked);
    const deadOfV = async () => (await readDeadLetters(pub.nc)).filter((d) => deposits.includes(d.data));
    const refused = await deadOfV();
    expect(refused).toHaveLength(2);
    for (const d of refused) expect(d.reason).toMatch(/par_refuse_all.*\(SQLSTATE 23514\)$/);

    // Fixed: the others apply, none more is dead-lettered.
    await reader.query("ALTER TABLE transactions DROP CONSTRAINT par_refuse_all");
    const applied = await until(
      async () =>
        (await reader.query<{ n: number }>("SELECT count(*)::int AS n FROM transactions WHERE id LIKE 'V-%'"))
          .rows[0]?.n,
      (n) => n === 3,
      30_000,
    );
    expect(applied).toBe(3);
    expect(await deadOfV()).toHaveLength(2);
  }, 90_000);
});
