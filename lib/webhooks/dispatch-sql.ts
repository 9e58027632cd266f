/*
 * The dispatcher's SQL (lib/webhooks/dispatcher.ts). A worker claims ONE due delivery in a transaction that it
 * keeps open while it POSTs (FOR UPDATE SKIP LOCKED: other workers and dispatcher processes pass over it), then
 * records the attempt and the delivery's new state and commits. A dispatcher killed mid-POST leaves the
 * transaction to roll back when its connection drops: the delivery is still pending and due, and is sent again
 * (at-least-once; receivers dedupe on the event id).
 */

/** The oldest due delivery of an active endpoint, locked; other workers skip it. */
export const CLAIM_DELIVERY_SQL = `
SELECT d.id, d.event_id, d.payload, d.attempts, e.url, e.secret
FROM webhook_deliveries d JOIN webhook_endpoints e ON e.id = d.endpoint_id
WHERE d.status = 'pending' AND d.next_attempt_at <= now() AND e.active
ORDER BY d.next_attempt_at, d.id
LIMIT 1
FOR UPDATE OF d SKIP LOCKED`;

/** $1 delivery, $2 attempt number, $3 status code, $4 latency, $5 error, $6 next attempt (null when settled). */
export const RECORD_ATTEMPT_SQL = `
INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, next_attempt_at)
VALUES ($1, $2, $3, $4, $5, $6)`;

/** $1 delivery, $2 new status, $3 attempts, $4 next attempt, $5 status code, $6 error. */
export const SETTLE_DELIVERY_SQL = `
UPDATE webhook_deliveries SET
  status = $2, attempts = $3, next_attempt_at = COALESCE($4, next_attempt_at),
  last_status_code = $5, last_error = $6,
  delivered_at = CASE WHEN $2 = 'delivered' THEN now() ELSE delivered_at END
WHERE id = $1`;
