import "server-only";
import { jetstreamManager } from "@nats-io/jetstream";
import { connect, type NatsConnection } from "@nats-io/transport-node";
import {
  DEAD_REASON_HEADER,
  DEAD_STREAM,
  DEAD_SUBJECT_HEADER,
  WALLET_STREAM,
  WALLET_SUBJECTS,
} from "@/features/live/schema/wallet-events";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { getEnv } from "@/platform/env/env";
import { natsAuthOptions } from "./nats-auth.ts";

/*
 * /api/health/ingest: how far the read model is behind the wallet. The last applied event comes from the
 * progress row the consumer writes in each batch's transaction (so it is what is committed); the lag from the
 * durable consumer's info at NATS (num_pending: not yet delivered; num_ack_pending: delivered, not yet acked).
 * The dead letters (events the consumer could not apply: their count, and the newest one's reason) from the
 * stream WALLET_DEAD. The event's id is left out, and quoted text of a reason (a payload excerpt, say) is
 * masked: the health routes answer without authentication. `webhooks`: how many active endpoints are failing (a
 * delivery ran out of its retry window, docs/webhooks.md) and since when; no URL or id (unauthenticated).
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
  /** What wallet.dead holds now (its retention: INGEST_DEAD_LETTER_MAX_AGE_DAYS); null when NATS is not read. */
  dead_letters: {
    held: number;
    last: { reason: string; subject: string; dead_lettered_at: string } | null;
  } | null;
  nats: "connected" | "unreachable" | "not configured";
  webhooks: { failing_endpoints: number; failing_since: string | null };
}

const globalForNats = globalThis as unknown as { ingestNats?: Promise<NatsConnection> };

/** One connection per process, made on first use; a failed attempt is forgotten so the next check retries. */
function natsConnection(url: string): Promise<NatsConnection> {
  if (!globalForNats.ingestNats) {
    globalForNats.ingestNats = connect({
      servers: url,
      timeout: 1_000,
      maxReconnectAttempts: -1,
      // The web server's own NATS user (docs/live-data.md: read-only rights on the two streams' info).
      ...natsAuthOptions(getEnv()),
    }).catch((error: unknown) => {
      globalForNats.ingestNats = undefined;
      throw error;
    });
  }
  return globalForNats.ingestNats;
}

/** Quoted text masked (a JSON parse error quotes the payload): `"…"`; at most 300 characters. */
export const maskReason = (reason: string): string =>
  reason
    .replace(/"(?:[^"\\]|\\.)*"?/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .slice(0, 300);

/** The durable consumer's info and the dead letters' stream, or null for a stream not created yet. */
async function natsFigures(url: string, consumer: string, timeoutMs: number) {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error("timeout")), timeoutMs);
  });
  try {
    return await Promise.race([
      (async () => {
        const jsm = await jetstreamManager(await natsConnection(url), { timeout: timeoutMs });
        const info = await jsm.consumers.info(WALLET_STREAM, consumer);
        const dead = await jsm.streams.info(DEAD_STREAM).catch(() => null);
        const last = dead?.state.messages
          ? await jsm.streams.getMessage(DEAD_STREAM, { last_by_subj: WALLET_SUBJECTS.dead })
          : null;
        return { info, dead, last };
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
  const failing = await db.webhookEndpoint.aggregate({
    where: { active: true, failingSince: { not: null } },
    _count: { _all: true },
    _min: { failingSince: true },
  });
  const webhooks = {
    failing_endpoints: failing._count._all,
    failing_since: failing._min.failingSince?.toISOString() ?? null,
  };
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
    return {
      status: row ? "unknown" : "idle",
      consumer,
      last_applied,
      lag: null,
      dead_letters: null,
      nats: "not configured",
      webhooks,
    };
  try {
    const { info, dead, last } = await natsFigures(env.NATS_URL, consumer, options.timeoutMs ?? 1_000);
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
      dead_letters: {
        held: dead?.state.messages ?? 0,
        last: last
          ? {
              reason: maskReason(last.header?.get(DEAD_REASON_HEADER) ?? ""),
              subject: last.header?.get(DEAD_SUBJECT_HEADER) ?? "",
              dead_lettered_at: last.time.toISOString(),
            }
          : null,
      },
      nats: "connected",
      webhooks,
    };
  } catch {
    return {
      status: "unknown",
      consumer,
      last_applied,
      lag: null,
      dead_letters: null,
      nats: "unreachable",
      webhooks,
    };
  }
}
