-- GET /api/v1/webhook-events (docs/webhooks.md): each page is audited with the players its bodies name.
ALTER TYPE "audit_operation" ADD VALUE IF NOT EXISTS 'webhook_events';

-- The read lists the last 30 days of deliveries by position (id): created_at bounds the scan.
CREATE INDEX "webhook_deliveries_created_at_idx" ON "webhook_deliveries" ("created_at");
