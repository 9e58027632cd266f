import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { WebhookEventType } from "@/features/webhook-events/schema/webhook-payloads";
import { type AttemptOutcome, postWebhook } from "./post.ts";
import { generateWebhookSecret } from "./signature.ts";
import { checkWebhookUrl } from "./url.ts";

/*
 * What an admin does with webhooks (npm run webhooks, workers/webhooks/admin-main.ts): add, list, disable or enable an
 * endpoint; rotate its secret; send it a test ping; list deliveries; replay one. A secret is returned once, by
 * add or rotate, and never by a read.
 */

type Db = Pick<pg.Pool, "query">;

export interface AddEndpointOptions {
  url: string;
  eventTypes: WebhookEventType[];
  /** Generated (32 random bytes) when not given. */
  secret?: string;
  /** Decimal digits; the table's default (10000) when not given. */
  minAmount?: string;
  description?: string;
}

export interface EndpointSummary {
  id: string;
  url: string;
  event_types: string[];
  min_amount: string;
  active: boolean;
  description: string | null;
  created_at: string;
  pending: number;
  failed: number;
  /** When a delivery to it ran out of retries (null: not failing). */
  failing_since: string | null;
  /** Until when the secret before the last rotation is still signed with (null: no overlap). */
  previous_secret_valid_until: string | null;
}

export async function addEndpoint(
  options: AddEndpointOptions,
  db: Db,
): Promise<{ id: string; secret: string }> {
  const check = checkWebhookUrl(options.url);
  if (!check.ok) throw new Error(`url: ${check.reason}`);
  const id = `we_${randomUUID()}`;
  const secret = options.secret ?? generateWebhookSecret();
  await db.query(
    `INSERT INTO webhook_endpoints (id, url, secret, event_types, min_amount, description)
     VALUES ($1, $2, $3, $4, COALESCE($5::numeric, 10000), $6)`,
    [id, check.url.href, secret, options.eventTypes, options.minAmount ?? null, options.description ?? null],
  );
  return { id, secret };
}

/** Every endpoint, without its secret, with its pending and failed delivery counts. */
export async function listEndpoints(_options: Record<string, never>, db: Db): Promise<EndpointSummary[]> {
  const { rows } = await db.query<EndpointSummary>(
    `SELECT e.id, e.url, e.event_types, trim_scale(e.min_amount)::text AS min_amount, e.active, e.description,
       to_char(e.created_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS created_at,
       (count(d.id) FILTER (WHERE d.status = 'pending'))::int AS pending,
       (count(d.id) FILTER (WHERE d.status = 'failed'))::int AS failed,
       to_char(e.failing_since AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS failing_since,
       CASE WHEN e.previous_secret_expires_at > now() THEN
         to_char(e.previous_secret_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') END
         AS previous_secret_valid_until
     FROM webhook_endpoints e LEFT JOIN webhook_deliveries d ON d.endpoint_id = e.id
     GROUP BY e.id ORDER BY e.created_at, e.id`,
  );
  return rows;
}

export interface SetEndpointActiveOptions {
  id: string;
  active: boolean;
}

/** Disables (no new outbox rows, pending deliveries wait) or enables an endpoint; false when there is none. */
export async function setEndpointActive(options: SetEndpointActiveOptions, db: Db): Promise<boolean> {
  const { rowCount } = await db.query(
    "UPDATE webhook_endpoints SET active = $2, updated_at = now() WHERE id = $1",
    [options.id, options.active],
  );
  return (rowCount ?? 0) > 0;
}

export interface RotateSecretOptions {
  id: string;
  /** How long the old secret stays valid beside the new one (both signatures are sent meanwhile). */
  overlapMs: number;
  /** The new secret; generated (32 random bytes) when not given. */
  secret?: string;
}

/**
 * Rotates an endpoint's secret (Standard Webhooks): the new one signs from now on, and the current one keeps
 * signing too, as a second `v1,` entry, until the overlap ends, so the receiver can switch at its own pace. A
 * rotation during an overlap drops the oldest secret. Null when there is no such endpoint.
 */
export async function rotateSecret(
  options: RotateSecretOptions,
  db: Db,
): Promise<{ id: string; secret: string; previous_secret_valid_until: string } | null> {
  const secret = options.secret ?? generateWebhookSecret();
  const { rows } = await db.query<{ until: string }>(
    `UPDATE webhook_endpoints SET previous_secret = secret, secret = $2,
       previous_secret_expires_at = now() + make_interval(secs => $3::double precision / 1000), updated_at = now()
     WHERE id = $1
     RETURNING to_char(previous_secret_expires_at AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS until`,
    [options.id, secret, options.overlapMs],
  );
  const until = rows[0]?.until;
  return until ? { id: options.id, secret, previous_secret_valid_until: until } : null;
}

export interface PingEndpointOptions {
  id: string;
  timeoutMs: number;
}

export interface PingResult {
  event_id: string;
  ok: boolean;
  status_code: number | null;
  error: string | null;
  latency_ms: number;
}

/**
 * Sends the endpoint a signed `ping` now, outside the outbox (nothing is stored or retried): an admin checks a
 * receiver's URL and signature verification. Signed like a delivery (both secrets during a rotation's overlap);
 * the endpoint may be disabled. Null when there is no such endpoint.
 */
export async function pingEndpoint(options: PingEndpointOptions, db: Db): Promise<PingResult | null> {
  const { rows } = await db.query<{
    url: string;
    secret: string;
    previous_secret: string | null;
    now: string;
  }>(
    `SELECT url, secret, CASE WHEN previous_secret_expires_at > now() THEN previous_secret END AS previous_secret,
       to_char(now() AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS now
     FROM webhook_endpoints WHERE id = $1`,
    [options.id],
  );
  const endpoint = rows[0];
  if (!endpoint) return null;
  const eventId = randomUUID();
  const body = JSON.stringify({
    id: eventId,
    type: "ping",
    created_at: endpoint.now,
    data: { endpoint_id: options.id },
  });
  const check = checkWebhookUrl(endpoint.url);
  const outcome: AttemptOutcome = check.ok
    ? await postWebhook({
        url: check.url.href,
        secret: endpoint.secret,
        previousSecret: endpoint.previous_secret,
        eventId,
        body,
        timeoutMs: options.timeoutMs,
      })
    : { ok: false, statusCode: null, error: `refused: ${check.reason}`, latencyMs: 0 };
  return {
    event_id: eventId,
    ok: outcome.ok,
    status_code: outcome.statusCode,
    error: outcome.error,
    latency_ms: outcome.latencyMs,
  };
}

export interface DeliverySummary {
  id: string;
  event_id: string;
  endpoint_id: string;
  event_type: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  next_attempt_at: string;
  created_at: string;
}

export interface ListDeliveriesOptions {
  status?: "pending" | "delivered" | "failed";
  endpointId?: string;
  limit?: number;
}

export async function listDeliveries(options: ListDeliveriesOptions, db: Db): Promise<DeliverySummary[]> {
  const iso = (c: string) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const { rows } = await db.query<DeliverySummary>(
    `SELECT id::text, event_id, endpoint_id, event_type, status, attempts, last_status_code, last_error,
       ${iso("next_attempt_at")} AS next_attempt_at, ${iso("created_at")} AS created_at
     FROM webhook_deliveries
     WHERE ($1::text IS NULL OR status = $1) AND ($2::text IS NULL OR endpoint_id = $2)
     ORDER BY id DESC LIMIT $3`,
    [options.status ?? null, options.endpointId ?? null, options.limit ?? 50],
  );
  return rows;
}

export interface ReplayDeliveryOptions {
  id: string;
}

/**
 * Sends a delivery again: the same event id and body, due now, with a fresh retry window (the log keeps the
 * earlier attempts). Only a `failed` or `delivered` delivery; false when there is no such delivery.
 */
export async function replayDelivery(options: ReplayDeliveryOptions, db: Db): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now(),
       retry_started_at = NULL
     WHERE id = $1::bigint AND status IN ('failed', 'delivered')`,
    [options.id],
  );
  return (rowCount ?? 0) > 0;
}

export interface AttemptSummary {
  attempt: number;
  attempted_at: string;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  next_attempt_at: string | null;
}

export interface ListAttemptsOptions {
  deliveryId: string;
}

/** The delivery log of one delivery, oldest first. */
export async function listAttempts(options: ListAttemptsOptions, db: Db): Promise<AttemptSummary[]> {
  const iso = (c: string) => `to_char(${c} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
  const { rows } = await db.query<AttemptSummary>(
    `SELECT attempt, ${iso("attempted_at")} AS attempted_at, status_code, latency_ms, error,
       ${iso("next_attempt_at")} AS next_attempt_at
     FROM webhook_attempts WHERE delivery_id = $1::bigint ORDER BY id`,
    [options.deliveryId],
  );
  return rows;
}
