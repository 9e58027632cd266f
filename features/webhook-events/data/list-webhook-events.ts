import "server-only";
import {
  WEBHOOK_EVENTS_DAYS,
  type WebhookEventRecord,
  type WebhookEventsPage,
} from "@/features/webhook-events/schema/webhook-events";
import type { WebhookEventType } from "@/features/webhook-events/schema/webhook-payloads";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";

/*
 * GET /webhook-events' data (docs/webhooks.md): the deliveries written in the last 30 days after a position, with
 * their attempts. Never the endpoint's secret, and the URL without its query string (a token a receiver put there
 * stays out of the answer). A position is the delivery's id: the ingest writes the outbox under its batch lock,
 * one batch at a time, so positions commit in increasing order and a poller that follows `next` skips none.
 */

export interface ListWebhookEventsOptions {
  after: number;
  limit: number;
  endpointId?: string;
  /** The clock the 30 days are counted from (now unless a test sets it). */
  now?: Date;
}

/** The URL's scheme, host, port and path. */
const withoutQuery = (url: string): string => {
  try {
    const u = new URL(url);
    return `${u.protocol}//${u.host}${u.pathname}`;
  } catch {
    return "";
  }
};

export async function listWebhookEvents(
  options: ListWebhookEventsOptions,
  db: PrismaClient = getPrisma(),
): Promise<WebhookEventsPage> {
  const since = new Date((options.now ?? new Date()).getTime() - WEBHOOK_EVENTS_DAYS * 86_400_000);
  const rows = await db.webhookDelivery.findMany({
    where: {
      id: { gt: BigInt(options.after) },
      createdAt: { gte: since },
      ...(options.endpointId ? { endpointId: options.endpointId } : {}),
    },
    orderBy: { id: "asc" },
    take: options.limit + 1,
    select: {
      id: true,
      eventId: true,
      eventType: true,
      endpointId: true,
      payload: true,
      status: true,
      nextAttemptAt: true,
      createdAt: true,
      deliveredAt: true,
      endpoint: { select: { url: true } },
      log: {
        orderBy: { id: "asc" },
        select: { attempt: true, attemptedAt: true, statusCode: true, error: true, latencyMs: true },
      },
    },
  });
  const page = rows.slice(0, options.limit);
  const events = page.map(
    (row): WebhookEventRecord => ({
      position: Number(row.id),
      event_id: row.eventId,
      type: row.eventType as WebhookEventType,
      endpoint_id: row.endpointId,
      endpoint_url: withoutQuery(row.endpoint.url),
      status: row.status as WebhookEventRecord["status"],
      created_at: row.createdAt.toISOString(),
      delivered_at: row.deliveredAt?.toISOString() ?? null,
      next_attempt_at: row.status === "pending" ? row.nextAttemptAt.toISOString() : null,
      attempts: row.log.map((a) => ({
        attempt: a.attempt,
        attempted_at: a.attemptedAt.toISOString(),
        status_code: a.statusCode,
        error: a.error,
        latency_ms: a.latencyMs,
      })),
      body: row.payload,
    }),
  );
  return {
    events,
    next: events.at(-1)?.position ?? options.after,
    has_more: rows.length > options.limit,
  };
}
