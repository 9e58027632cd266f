-- Live data (issue 24): the wallet's transaction states, the versions that make applying its events idempotent,
-- and the consumer's progress.

-- A transaction's state. `completed_at` keeps its meaning (set exactly when the transaction completed), so every
-- completed figure (daily stats, summary, KPIs) reads as before; failed and cancelled ones never completed.
CREATE TYPE "transaction_status" AS ENUM ('pending', 'completed', 'failed', 'cancelled');

-- ADD COLUMN with a constant default rewrites no rows; only the pending ones (few, recent) are updated.
ALTER TABLE "transactions"
  ADD COLUMN "status" "transaction_status" NOT NULL DEFAULT 'completed',
  ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;
UPDATE "transactions" SET "status" = 'pending' WHERE "completed_at" IS NULL;
-- Writers must say the state; a pending row written without it fails here instead of passing as completed.
ALTER TABLE "transactions" ADD CONSTRAINT "transactions_status_completed_at_check"
  CHECK (("status" = 'completed') = ("completed_at" IS NOT NULL));

-- A profile's version from the wallet (0: written by the seed, the generator or an import).
ALTER TABLE "players" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 0;

-- Daily stats: failed and cancelled counts beside n and completed_n, so every status filter's total is exact from
-- the stats (pending = n − completed_n − failed_n − cancelled_n). Completed figures exclude failed/cancelled.
ALTER TABLE "transaction_daily_stats"
  ADD COLUMN "failed_n" INTEGER NOT NULL DEFAULT 0,
  ADD COLUMN "cancelled_n" INTEGER NOT NULL DEFAULT 0;
DROP INDEX "transaction_daily_stats_counts_idx";
CREATE INDEX "transaction_daily_stats_counts_idx" ON "transaction_daily_stats"("player_id", "day", "event_type", "event_name", "created_by", "n", "completed_n", "failed_n", "cancelled_n");

CREATE OR REPLACE FUNCTION "transaction_daily_stats_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE "transaction_daily_stats";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    WITH gone AS (
      SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by,
             count(*)::int AS n,
             (count(*) FILTER (WHERE status = 'completed'))::int AS completed_n,
             (count(*) FILTER (WHERE status = 'failed'))::int AS failed_n,
             (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled_n,
             COALESCE(sum(abs(amount)) FILTER (WHERE status = 'completed'), 0) AS completed_amount
      FROM old_rows GROUP BY 1, 2, 3, 4, 5
    )
    UPDATE "transaction_daily_stats" s
    SET n = s.n - g.n, completed_n = s.completed_n - g.completed_n, failed_n = s.failed_n - g.failed_n,
        cancelled_n = s.cancelled_n - g.cancelled_n, completed_amount = s.completed_amount - g.completed_amount
    FROM gone g
    WHERE s.player_id = g.player_id AND s.day = g.day AND s.event_type = g.event_type
      AND s.event_name = g.event_name AND s.created_by = g.created_by;
    DELETE FROM "transaction_daily_stats" s
    USING (SELECT DISTINCT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by
           FROM old_rows) g
    WHERE s.player_id = g.player_id AND s.day = g.day AND s.event_type = g.event_type
      AND s.event_name = g.event_name AND s.created_by = g.created_by AND s.n = 0;
  END IF;
  IF TG_OP IN ('INSERT', 'UPDATE') THEN
    INSERT INTO "transaction_daily_stats" AS s
      (player_id, day, event_type, event_name, created_by, n, completed_n, failed_n, cancelled_n, completed_amount)
    SELECT player_id, (date AT TIME ZONE 'UTC')::date, event_type, event_name, created_by,
           count(*)::int,
           (count(*) FILTER (WHERE status = 'completed'))::int,
           (count(*) FILTER (WHERE status = 'failed'))::int,
           (count(*) FILTER (WHERE status = 'cancelled'))::int,
           COALESCE(sum(abs(amount)) FILTER (WHERE status = 'completed'), 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (player_id, day, event_type, event_name, created_by) DO UPDATE
    SET n = s.n + EXCLUDED.n, completed_n = s.completed_n + EXCLUDED.completed_n,
        failed_n = s.failed_n + EXCLUDED.failed_n, cancelled_n = s.cancelled_n + EXCLUDED.cancelled_n,
        completed_amount = s.completed_amount + EXCLUDED.completed_amount;
  END IF;
  RETURN NULL;
END;
$$;

-- The consumer's progress (npm run ingest), updated in each batch's transaction: the health check's
-- "last applied event" is then exactly what is committed.
CREATE TABLE "ingest_progress" (
    "consumer" TEXT NOT NULL,
    "stream_seq" BIGINT NOT NULL,
    "subject" TEXT NOT NULL,
    "event_id" TEXT NOT NULL,
    "published_at" TIMESTAMPTZ(3) NOT NULL,
    "applied_at" TIMESTAMPTZ(3) NOT NULL,
    "applied_total" BIGINT NOT NULL,
    "dead_total" BIGINT NOT NULL,

    CONSTRAINT "ingest_progress_pkey" PRIMARY KEY ("consumer")
);
