import { jetstream, jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createPrismaClient } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { resetEnvCache } from "@/platform/env/env";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { createNatsServer, type NatsServer, natsServerAvailable } from "@/test/support/nats-server";
import { getIngestStatus } from "./ingest-status.ts";
import { ensureConsumer, ensureWalletStream } from "./wallet-stream.ts";

// /api/health/ingest's figures: the committed progress row and the durable consumer's lag at a real NATS.
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3202) + 33;

describe.runIf(natsServerAvailable())("getIngestStatus", () => {
  let nats: NatsServer;
  let db: { url: string; stop(): Promise<void> };
  let prisma: PrismaClient;
  let nc: NatsConnection;
  const saved = { ...process.env };

  beforeAll(async () => {
    nats = createNatsServer(PORT);
    await nats.start();
    db = await freshTestDatabase(inject("databaseKind"), "ingest_status");
    prisma = createPrismaClient(db.url, 2);
    nc = await connect({ servers: nats.url });
  });

  afterAll(async () => {
    process.env = saved;
    resetEnvCache();
    await nc?.close();
    await prisma?.$disconnect();
    await db?.stop();
    await nats?.destroy();
  });

  const withEnv = (env: Record<string, string | undefined>) => {
    process.env = { ...saved, AUTH_MODE: "demo", ...env };
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete process.env[k];
    resetEnvCache();
  };

  it("without NATS_URL: idle before any batch, the lag unknown", async () => {
    withEnv({ NATS_URL: undefined });
    expect(await getIngestStatus({}, prisma)).toEqual({
      status: "idle",
      consumer: "read-model",
      last_applied: null,
      lag: null,
      dead_letters: null,
      nats: "not configured",
      webhooks: { failing_endpoints: 0, failing_since: null },
    });
  });

  it("counts the active endpoints marked failing by the dispatcher, without their ids or URLs", async () => {
    withEnv({ NATS_URL: undefined });
    await prisma.$executeRawUnsafe(
      `INSERT INTO webhook_endpoints (id, url, secret, event_types, failing_since, active) VALUES
        ('we_failing_a', 'https://a.example/hook', 'whsec_x', '{transaction.large}', '2026-12-01T10:00:00Z', true),
        ('we_failing_b', 'https://b.example/hook', 'whsec_x', '{transaction.large}', '2026-12-02T10:00:00Z', true),
        ('we_failing_off', 'https://c.example/hook', 'whsec_x', '{transaction.large}', '2026-11-01T10:00:00Z', false),
        ('we_fine', 'https://d.example/hook', 'whsec_x', '{transaction.large}', NULL, true)`,
    );
    try {
      const status = await getIngestStatus({}, prisma);
      expect(status.webhooks).toEqual({ failing_endpoints: 2, failing_since: "2026-12-01T10:00:00.000Z" });
      expect(JSON.stringify(status)).not.toMatch(/we_failing|example/);
    } finally {
      await prisma.$executeRawUnsafe("DELETE FROM webhook_endpoints WHERE id LIKE 'we_f%'");
    }
  });

  it("reports the committed progress and the consumer's pending events", async () => {
    const jsm = await jetstreamManager(nc);
    await ensureWalletStream(jsm);
    await ensureConsumer(jsm, { name: "status-test", ackWaitMs: 5_000, batchSize: 10 });
    for (let i = 0; i < 3; i++) await jetstream(nc).publish("wallet.player", "{}", { msgID: `x:${i}` });
    await prisma.$executeRawUnsafe(
      `INSERT INTO ingest_progress VALUES ('status-test', 41, 'wallet.transaction', 'T1:2', '2026-11-26T01:00:00Z', '2026-11-26T01:00:01Z', 40, 1)`,
    );
    withEnv({ NATS_URL: nats.url, INGEST_CONSUMER: "status-test" });
    const status = await getIngestStatus({}, prisma);
    expect(status).toMatchObject({
      status: "behind",
      consumer: "status-test",
      last_applied: {
        stream_seq: 41,
        subject: "wallet.transaction",
        published_at: "2026-11-26T01:00:00.000Z",
        applied_total: 40,
        dead_total: 1,
      },
      lag: { events: 3, pending: 3, ack_pending: 0 },
      nats: "connected",
    });
    expect(JSON.stringify(status)).not.toContain("T1:2"); // no ids in the unauthenticated answer
  });

  it("says so when NATS is unreachable", async () => {
    withEnv({ NATS_URL: "nats://127.0.0.1:1", INGEST_CONSUMER: "status-test" });
    (globalThis as { ingestNats?: unknown }).ingestNats = undefined;
    const status = await getIngestStatus({ timeoutMs: 500 }, prisma);
    expect(status.nats).toBe("unreachable");
    expect(status.status).toBe("unknown");
    expect(status.last_applied?.stream_seq).toBe(41);
  });
});
