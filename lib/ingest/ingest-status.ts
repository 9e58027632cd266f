import "server-only";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { getEnv } from "@/lib/env";
import { WALLET_STREAM } from "@/lib/schemas/wallet-events";

/*
 * /api/health/ingest: how far the read model is behind the wallet. The last applied event comes from the
 * progress row the consumer writes in each batch's transaction (so it is what is committed); the lag from the
 * durable consumer's info at NATS (num_pending: not yet delivered; num_ack_pending: delivered, not yet acked).
 * The event's id is left out: the health routes answer without authentication.
 */

export interface IngestStatus {
  status: "ok" | "behind" | "idle" | "unknown";
  consumer: string;
  last_applied: {
    stream_seq: number;
    subject: string;
    published_at: string;
    applied_at: string;
    applied_total: number;
    dead_total: number;
  } | null;
  lag: { events: number; pending: number; ack_pending: number; redelivered: number; seconds: number } | null;
  nats: "connected" | "unreachable" | "not configured";
}

const globalForNats = globalThis as unknown as { ingestNats?: Promise<NatsConnection> };

/** One connection per process, made on first use; a failed attempt is forgotten so the next check retries. */
function natsConnection(url: string): Promise<NatsConnection> {
  if (!globalForNats.ingestNats) {
    globalForNats.ingestNats = connect({ servers: url, timeout: 1_000, maxReconnectAttempts: -1 }).catch(
      (error: unknown) => {
        globalForNats.ingestNats = undefined;
        throw error;
      },
    );
  }
  return globalForNats.ingestNats;
}

async function consumerLag(url: string, consumer: string, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
  });
  try {
    return await Promise.race([
      (async () => {
        const jsm = await jetstreamManager(await natsConnection(url), { timeout: timeoutMs });
        return jsm.consumers.info(WALLET_STREAM, consumer);
      })(),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}

export interface GetIngestStatusOptions {
  /** How long to wait for NATS (default 1 s). */
  timeoutMs?: number;
}

export async function getIngestStatus(
  options: GetIngestStatusOptions = {},
  db: PrismaClient = getPrisma(),
): Promise<IngestStatus> {
  const env = getEnv();
  const consumer = env.INGEST_CONSUMER;
  const row = await db.ingestProgress.findUnique({ where: { consumer } });
  const last_applied = row
    ? {
        stream_seq: Number(row.streamSeq),
        subject: row.subject,
        published_at: row.publishedAt.toISOString(),
        applied_at: row.appliedAt.toISOString(),
        applied_total: Number(row.appliedTotal),
        dead_total: Number(row.deadTotal),
      }
    : null;
  if (!env.NATS_URL)
    return { status: row ? "unknown" : "idle", consumer, last_applied, lag: null, nats: "not configured" };
  try {
    const info = await consumerLag(env.NATS_URL, consumer, options.timeoutMs ?? 1_000);
    const events = info.num_pending + info.num_ack_pending;
    const seconds = events > 0 && row ? Math.max(0, (Date.now() - row.publishedAt.getTime()) / 1000) : 0;
    return {
      status: events > 0 ? "behind" : "ok",
      consumer,
      last_applied,
      lag: {
        events,
        pending: info.num_pending,
        ack_pending: info.num_ack_pending,
        redelivered: info.num_redelivered,
        seconds: Math.round(seconds * 1000) / 1000,
      },
      nats: "connected",
    };
  } catch {
    return { status: "unknown", consumer, last_applied, lag: null, nats: "unreachable" };
  }
}
