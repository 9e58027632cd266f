-- Webhooks an integrator can run (issue 41, docs/webhooks.md).
-- A delivery is retried for a window (72 h by default) measured from its first attempt, not for a count of
-- attempts: `retry_started_at` is that first attempt's time (a replay clears it, giving a fresh window).
ALTER TABLE "webhook_deliveries" ADD COLUMN "retry_started_at" TIMESTAMPTZ(3);

-- An endpoint whose delivery ran out of retries is failing from then until one of its deliveries succeeds
-- (shown by /api/health/ingest and logged by the dispatcher). Secret rotation keeps the previous secret valid,
-- and signs with both, until `previous_secret_expires_at`.
ALTER TABLE "webhook_endpoints"
  ADD COLUMN "failing_since" TIMESTAMPTZ(3),
  ADD COLUMN "previous_secret" TEXT,
  ADD COLUMN "previous_secret_expires_at" TIMESTAMPTZ(3);
