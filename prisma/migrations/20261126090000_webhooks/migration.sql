-- Webhooks for the risk service (issue 26, docs/webhooks.md): the endpoints an admin configures, the outbox of
-- deliveries written in the SAME database transaction as the ingest batch whose events they announce (nothing
-- lost on a crash, nothing sent for a batch that rolled back), and the log of every delivery attempt.

-- An endpoint: where to POST, the signing secret (Standard Webhooks `whsec_…`; never returned by a read), the
-- event types it subscribes to, and the threshold of `transaction.large` (|amount| >= min_amount, any currency).
CREATE TABLE "webhook_endpoints" (
    "id" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "secret" TEXT NOT NULL,
    "event_types" TEXT[] NOT NULL,
    "min_amount" DECIMAL(20,8) NOT NULL DEFAULT 10000,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "description" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "webhook_endpoints_pkey" PRIMARY KEY ("id")
);

-- One event for one endpoint: the outbox row and the delivery's state. `payload` is the body exactly as sent
-- (the same event id and bytes on every attempt and replay). The dispatcher claims due rows
-- (`status = 'pending' AND next_attempt_at <= now()`) with FOR UPDATE SKIP LOCKED.
CREATE TABLE "webhook_deliveries" (
    "id" BIGSERIAL NOT NULL,
    "event_id" TEXT NOT NULL,
    "endpoint_id" TEXT NOT NULL,
    "event_type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "next_attempt_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "last_status_code" INTEGER,
    "last_error" TEXT,
    "created_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "delivered_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_deliveries_pkey" PRIMARY KEY ("id"),
    CONSTRAINT "webhook_deliveries_status_check" CHECK ("status" IN ('pending', 'delivered', 'failed'))
);

-- An event reaches an endpoint once (a redelivered ingest batch writes nothing twice).
CREATE UNIQUE INDEX "webhook_deliveries_event_id_endpoint_id_key" ON "webhook_deliveries"("event_id", "endpoint_id");
-- What the dispatcher claims: the due pending deliveries, oldest first.
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries"("next_attempt_at", "id") WHERE "status" = 'pending';
CREATE INDEX "webhook_deliveries_endpoint_id_status_idx" ON "webhook_deliveries"("endpoint_id", "status");

ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_fkey" FOREIGN KEY ("endpoint_id") REFERENCES "webhook_endpoints"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- The delivery log: every attempt, with its answer (status code or error), latency and the next attempt planned.
CREATE TABLE "webhook_attempts" (
    "id" BIGSERIAL NOT NULL,
    "delivery_id" BIGINT NOT NULL,
    "attempt" INTEGER NOT NULL,
    "attempted_at" TIMESTAMPTZ(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "status_code" INTEGER,
    "latency_ms" INTEGER NOT NULL,
    "error" TEXT,
    "next_attempt_at" TIMESTAMPTZ(3),

    CONSTRAINT "webhook_attempts_pkey" PRIMARY KEY ("id")
);

CREATE INDEX "webhook_attempts_delivery_id_id_idx" ON "webhook_attempts"("delivery_id", "id");

ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_delivery_id_fkey" FOREIGN KEY ("delivery_id") REFERENCES "webhook_deliveries"("id") ON DELETE CASCADE ON UPDATE CASCADE;
