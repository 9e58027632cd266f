import { randomUUID } from "node:crypto";
import type pg from "pg";
import type { WebhookEventType } from "@/lib/schemas/webhooks";
import { generateWebhookSecret } from "./signature.ts";
import { checkWebhookUrl } from "./url.ts";

/*
 * What an admin does with webhooks (npm run webhooks, scripts/webhooks.ts): add, list, disable or enable an
 * endpoint; list deliveries; replay one. The secret is returned once, by add, and never by a read.
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
       (count(d.id) FILTER (WHERE d.status = 'failed'))::int AS failed
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
 * Sends a delivery again: the same event id and body, due now, with a fresh allowance of attempts (the log keeps
 * the earlier ones). Only a `failed` or `delivered` delivery; false when there is no such delivery.
 */
export async function replayDelivery(options: ReplayDeliveryOptions, db: Db): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE webhook_deliveries SET status = 'pending', attempts = 0, next_attempt_at = now()
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
