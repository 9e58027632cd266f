/*
 * The dispatcher's SQL (workers/webhooks/dispatcher.ts). A worker claims ONE due delivery in a transaction that it
 * keeps open while it POSTs (FOR UPDATE SKIP LOCKED: other workers and dispatcher processes pass over it), then
 * records the attempt and the delivery's new state and commits. A dispatcher killed mid-POST leaves the
 * transaction to roll back when its connection drops: the delivery is still pending and due, and is sent again
 * (at-least-once; receivers dedupe on the event id). $1 is the dispatcher's clock (now, unless a test sets it).
 */

/**
 * The oldest due delivery of an active endpoint, locked; other workers skip it. The previous secret only while
 * a rotation's overlap lasts.
 */
export const CLAIM_DELIVERY_SQL = `
SELECT d.id, d.event_id, d.endpoint_id, d.payload, d.attempts, d.retry_started_at, e.url, e.secret,
  CASE WHEN e.previous_secret_expires_at > $1::timestamptz THEN e.previous_secret END AS previous_secret
FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE d.status = 'pending' AND d.next_attempt_at <= $1::timestamptz AND e.active
ORDER BY d.next_attempt_at, d.id
LIMIT 1
FOR UPDATE OF d SKIP LOCKED`;

/** $1 delivery, $2 attempt number, $3 status code, $4 latency, $5 error, $6 next attempt (null when settled), $7 time. */
export const RECORD_ATTEMPT_SQL = `
INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, next_attempt_at, attempted_at)
VALUES ($1, $2, $3, $4, $5, $6, $7)`;

/**
 * $1 delivery, $2 new status, $3 attempts, $4 next attempt, $5 status code, $6 error, $7 this attempt's time
 * (the retry window's start when it is the first).
 */
export const SETTLE_DELIVERY_SQL = `
UPDATE webhook_deliveries SET
  status = $2, attempts = $3, next_attempt_at = COALESCE($4, next_attempt_at),
  last_status_code = $5, last_error = $6, retry_started_at = COALESCE(retry_started_at, $7),
  delivered_at = CASE WHEN $2 = 'delivered' THEN $7 ELSE delivered_at END
WHERE id = $1`;

/** $1 endpoint, $2 time: marks it failing; returns a row only when it was not failing before (log it once). */
export const MARK_ENDPOINT_FAILING_SQL = `
UPDATE webhook_endpoints SET failing_since = $2 WHERE id = $1 AND failing_since IS NULL RETURNING id`;

/** $1 endpoint: a delivered event ends its failing state; returns a row when it was failing. */
export const CLEAR_ENDPOINT_FAILING_SQL = `
UPDATE webhook_endpoints SET failing_since = NULL WHERE id = $1 AND failing_since IS NOT NULL RETURNING id`;
