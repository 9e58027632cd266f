-- Who read, in words: the signed-in person's display name from the verified token (`name`, else
-- `preferred_username`); null for callers whose token names nobody. The append-only triggers still apply:
-- adding a column changes no existing row.
ALTER TABLE "audit_events" ADD COLUMN "subject_name" TEXT;

-- The admins' audit page (all players, newest first) filters by user, operation and period: each an index
-- that yields the filtered rows in id order (or a narrow time range), so a page never scans the whole trail.
-- The player filter uses the two player indexes above.
CREATE INDEX "audit_events_subject_id_idx" ON "audit_events"("subject", "id" DESC);
CREATE INDEX "audit_events_operation_id_idx" ON "audit_events"("operation", "id" DESC);
CREATE INDEX "audit_events_occurred_at_idx" ON "audit_events"("occurred_at");
