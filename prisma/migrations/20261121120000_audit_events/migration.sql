-- CreateEnum
CREATE TYPE "audit_operation" AS ENUM ('profile', 'transactions', 'search', 'export', 'audit_trail');

-- CreateTable
CREATE TABLE "audit_events" (
    "id" BIGSERIAL NOT NULL,
    "occurred_at" TIMESTAMPTZ(3) NOT NULL,
    "subject" TEXT NOT NULL,
    "auth_mode" TEXT NOT NULL,
    "scopes" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "session_id" TEXT NOT NULL,
    "operation" "audit_operation" NOT NULL,
    "player_id" TEXT,
    "result_player_ids" TEXT[] DEFAULT ARRAY[]::TEXT[],
    "filters" JSONB NOT NULL DEFAULT '{}',
    "request_id" TEXT NOT NULL,
    "client_address" TEXT,

    CONSTRAINT "audit_events_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "audit_events_player_id_idx" ON "audit_events"("player_id", "id" DESC);

-- CreateIndex
CREATE INDEX "audit_events_result_player_ids_idx" ON "audit_events" USING GIN ("result_player_ids");

-- Append-only: the application only ever inserts. Changing or removing history needs a deliberate
-- `ALTER TABLE audit_events DISABLE TRIGGER ...` by the table owner (e.g. for a retention job).
CREATE FUNCTION "audit_events_reject_change"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION 'audit_events is append-only: % is not allowed', TG_OP
    USING ERRCODE = 'insufficient_privilege';
END;
$$;

CREATE TRIGGER "audit_events_no_update_delete" BEFORE UPDATE OR DELETE ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_reject_change"();

CREATE TRIGGER "audit_events_no_truncate" BEFORE TRUNCATE ON "audit_events"
  FOR EACH STATEMENT EXECUTE FUNCTION "audit_events_reject_change"();
