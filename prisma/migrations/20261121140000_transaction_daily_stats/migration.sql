-- CreateTable
CREATE TABLE "transaction_daily_stats" (
    "player_id" TEXT NOT NULL,
    "day" DATE NOT NULL,
    "event_type" "event_type" NOT NULL,
    "event_name" TEXT NOT NULL,
    "created_by" TEXT NOT NULL,
    "n" INTEGER NOT NULL,
    "completed_n" INTEGER NOT NULL,
    "completed_amount" DECIMAL(30,8) NOT NULL,

    CONSTRAINT "transaction_daily_stats_pkey" PRIMARY KEY ("player_id","day","event_type","event_name","created_by")
);

-- Per player, UTC day and filterable value combination: how many transactions there are, and how many completed
-- ones with the sum of their absolute amounts. Exact totals for a heavy player then read a few thousand of these
-- rows instead of counting up to millions of transactions. The database keeps them current itself: statement-level
-- triggers with transition tables apply each INSERT, UPDATE, DELETE (also cascaded ones) and TRUNCATE in bulk.
CREATE FUNCTION "transaction_daily_stats_apply"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'TRUNCATE' THEN
    TRUNCATE "transaction_daily_stats";
    RETURN NULL;
  END IF;
  IF TG_OP IN ('UPDATE', 'DELETE') THEN
    WITH gone AS (
      SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by,
             count(*)::int AS n,
             (count(*) FILTER (WHERE completed_at IS NOT NULL))::int AS completed_n,
             COALESCE(sum(abs(amount)) FILTER (WHERE completed_at IS NOT NULL), 0) AS completed_amount
      FROM old_rows GROUP BY 1, 2, 3, 4, 5
    )
    UPDATE "transaction_daily_stats" s
    SET n = s.n - g.n, completed_n = s.completed_n - g.completed_n,
        completed_amount = s.completed_amount - g.completed_amount
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
      (player_id, day, event_type, event_name, created_by, n, completed_n, completed_amount)
    SELECT player_id, (date AT TIME ZONE 'UTC')::date, event_type, event_name, created_by,
           count(*)::int,
           (count(*) FILTER (WHERE completed_at IS NOT NULL))::int,
           COALESCE(sum(abs(amount)) FILTER (WHERE completed_at IS NOT NULL), 0)
    FROM new_rows GROUP BY 1, 2, 3, 4, 5
    ON CONFLICT (player_id, day, event_type, event_name, created_by) DO UPDATE
    SET n = s.n + EXCLUDED.n, completed_n = s.completed_n + EXCLUDED.completed_n,
        completed_amount = s.completed_amount + EXCLUDED.completed_amount;
  END IF;
  RETURN NULL;
END;
$$;

CREATE TRIGGER "transactions_daily_stats_insert" AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
CREATE TRIGGER "transactions_daily_stats_update" AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
CREATE TRIGGER "transactions_daily_stats_delete" AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();
CREATE TRIGGER "transactions_daily_stats_truncate" AFTER TRUNCATE ON "transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION "transaction_daily_stats_apply"();

-- Existing transactions.
INSERT INTO "transaction_daily_stats" (player_id, day, event_type, event_name, created_by, n, completed_n, completed_amount)
SELECT player_id, (date AT TIME ZONE 'UTC')::date, event_type, event_name, created_by,
       count(*)::int,
       (count(*) FILTER (WHERE completed_at IS NOT NULL))::int,
       COALESCE(sum(abs(amount)) FILTER (WHERE completed_at IS NOT NULL), 0)
FROM "transactions" GROUP BY 1, 2, 3, 4, 5;
