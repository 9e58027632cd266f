-- The change feed (issue 26): `updated_at` on players and transactions, and a log of what changed, fed by every
-- writer through triggers (seed, db:generate, db:import, the live consumer), listed in COMMIT order by
-- GET /api/v1/changes. docs/decisions.md ("The change feed") has the reasons and the figures.

-- When the row last changed: the writing transaction's now() (every row of one database transaction carries the
-- same instant). Inserts take the default; updates are stamped by the trigger below, whoever the writer is.
ALTER TABLE "players" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();
ALTER TABLE "transactions" ADD COLUMN "updated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now();

CREATE FUNCTION stamp_updated_at() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.updated_at := now();
  RETURN NEW;
END $$;

-- Only rows whose values change are stamped (an UPDATE that writes the same values is no change).
CREATE TRIGGER players_updated_at BEFORE UPDATE ON "players"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION stamp_updated_at();
CREATE TRIGGER transactions_updated_at BEFORE UPDATE ON "transactions"
  FOR EACH ROW WHEN (OLD.* IS DISTINCT FROM NEW.*) EXECUTE FUNCTION stamp_updated_at();

-- The log. An entry is written by a statement trigger with position NULL; at COMMIT a deferred trigger takes a
-- transaction-scoped advisory lock and numbers the transaction's entries after every position committed before,
-- so positions become visible in increasing order: a reader that has seen position p never later finds a
-- smaller one (the lock is released only after the commit is visible).
CREATE SEQUENCE "change_position" AS bigint;

CREATE TABLE "changes" (
  "seq" BIGSERIAL NOT NULL,
  "position" BIGINT,
  -- player.created | player.updated | player.deleted | transaction.created | transaction.updated |
  -- transaction.deleted | player.transactions_changed (coarse, a bulk statement) | reset (a table was emptied)
  "kind" TEXT NOT NULL,
  "player_id" TEXT,
  "transaction_id" TEXT,
  "status" "transaction_status",
  "version" INTEGER,
  -- The writing transaction's now(): the updated_at of every row it wrote (a coarse entry's lower bound).
  "changed_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  -- One entry per thing per database transaction (player P, transaction T, P's transactions, reset).
  "dedupe_key" TEXT NOT NULL,
  CONSTRAINT "changes_pkey" PRIMARY KEY ("seq")
);
CREATE UNIQUE INDEX "changes_position_key" ON "changes"("position");
-- Entries not yet numbered: the writing transaction's own (others' are invisible until they commit).
CREATE UNIQUE INDEX "changes_pending_key" ON "changes"("dedupe_key") WHERE "position" IS NULL;

-- One row per writing transaction while it runs: its insert queues the deferred numbering once.
CREATE TABLE "change_commits" (
  "xact" BIGINT NOT NULL,
  CONSTRAINT "change_commits_pkey" PRIMARY KEY ("xact")
);

CREATE FUNCTION number_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  base bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('par:changes'));
  SELECT count(*) INTO n FROM changes WHERE position IS NULL;
  IF n > 0 THEN
    -- Under the lock nobody else draws from the sequence: reserve n positions at once.
    base := nextval('change_position');
    IF n > 1 THEN PERFORM setval('change_position', base + n - 1); END IF;
    UPDATE changes c SET position = base + o.rn - 1
    FROM (SELECT seq, row_number() OVER (ORDER BY seq) AS rn FROM changes WHERE position IS NULL) o
    WHERE c.seq = o.seq;
  END IF;
  DELETE FROM change_commits WHERE xact = NEW.xact;
  RETURN NULL;
END $$;

CREATE CONSTRAINT TRIGGER "change_commits_number" AFTER INSERT ON "change_commits"
  DEFERRABLE INITIALLY DEFERRED FOR EACH ROW EXECUTE FUNCTION number_changes();

-- Queues the numbering of this transaction's entries (once) and says whether they are still needed: after a
-- reset (TRUNCATE) in the same transaction, the reset entry stands for everything written with it.
CREATE FUNCTION change_log_open() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO change_commits (xact) VALUES (pg_current_xact_id()::text::bigint) ON CONFLICT DO NOTHING;
  RETURN NOT EXISTS (SELECT 1 FROM changes WHERE position IS NULL AND dedupe_key = 'reset');
END $$;

-- A created-then-updated thing stays "created"; its status and version are the last ones written.
CREATE FUNCTION log_changes_upsert_sql() RETURNS text LANGUAGE sql IMMUTABLE AS $$
  SELECT ' ON CONFLICT (dedupe_key) WHERE position IS NULL DO UPDATE SET
    kind = CASE WHEN changes.kind LIKE ''%.created'' AND EXCLUDED.kind NOT LIKE ''%.deleted''
      THEN changes.kind ELSE EXCLUDED.kind END,
    status = EXCLUDED.status, version = EXCLUDED.version'
$$;

CREATE FUNCTION log_player_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT change_log_open() THEN RETURN NULL; END IF;
  IF TG_OP = 'INSERT' THEN
    EXECUTE 'INSERT INTO changes (kind, player_id, version, dedupe_key)
      SELECT ''player.created'', id, version, ''p:'' || id FROM new_rows' || log_changes_upsert_sql();
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE 'INSERT INTO changes (kind, player_id, version, dedupe_key)
      SELECT ''player.updated'', n.id, n.version, ''p:'' || n.id
      FROM new_rows n JOIN old_rows o USING (id) WHERE n IS DISTINCT FROM o' || log_changes_upsert_sql();
  ELSE
    EXECUTE 'INSERT INTO changes (kind, player_id, dedupe_key)
      SELECT ''player.deleted'', id, ''p:'' || id FROM old_rows' || log_changes_upsert_sql();
  END IF;
  RETURN NULL;
END $$;

-- Statements of more than this many transactions (bulk loads) are logged coarsely: one entry per player,
-- `player.transactions_changed`; the player's transactions with updated_at >= changed_at hold every row written.
CREATE FUNCTION log_transaction_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  bulk constant int := 10000;
  rows_in bigint;
BEGIN
  IF NOT change_log_open() THEN RETURN NULL; END IF;
  IF TG_OP = 'DELETE' THEN
    SELECT count(*) INTO rows_in FROM old_rows;
  ELSE
    SELECT count(*) INTO rows_in FROM new_rows;
  END IF;
  IF rows_in > bulk THEN
    EXECUTE format('INSERT INTO changes (kind, player_id, dedupe_key)
      SELECT DISTINCT ''player.transactions_changed'', player_id, ''pt:'' || player_id FROM %I',
      CASE WHEN TG_OP = 'DELETE' THEN 'old_rows' ELSE 'new_rows' END) || log_changes_upsert_sql();
  ELSIF TG_OP = 'INSERT' THEN
    EXECUTE 'INSERT INTO changes (kind, player_id, transaction_id, status, version, dedupe_key)
      SELECT ''transaction.created'', player_id, id, status, version, ''t:'' || id FROM new_rows'
      || log_changes_upsert_sql();
  ELSIF TG_OP = 'UPDATE' THEN
    EXECUTE 'INSERT INTO changes (kind, player_id, transaction_id, status, version, dedupe_key)
      SELECT ''transaction.updated'', n.player_id, n.id, n.status, n.version, ''t:'' || n.id
      FROM new_rows n JOIN old_rows o USING (id) WHERE n IS DISTINCT FROM o' || log_changes_upsert_sql();
  ELSE
    EXECUTE 'INSERT INTO changes (kind, player_id, transaction_id, dedupe_key)
      SELECT ''transaction.deleted'', player_id, id, ''t:'' || id FROM old_rows' || log_changes_upsert_sql();
  END IF;
  RETURN NULL;
END $$;

-- TRUNCATE (the seed and db:generate replace everything): one `reset` entry; a syncer reads everything again.
CREATE FUNCTION log_reset() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM change_log_open();
  INSERT INTO changes (kind, dedupe_key) VALUES ('reset', 'reset') ON CONFLICT (dedupe_key) WHERE position IS NULL
    DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER players_changes_insert AFTER INSERT ON "players"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_player_changes();
CREATE TRIGGER players_changes_update AFTER UPDATE ON "players"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_player_changes();
CREATE TRIGGER players_changes_delete AFTER DELETE ON "players"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_player_changes();
CREATE TRIGGER players_changes_truncate AFTER TRUNCATE ON "players"
  FOR EACH STATEMENT EXECUTE FUNCTION log_reset();
CREATE TRIGGER transactions_changes_insert AFTER INSERT ON "transactions"
  REFERENCING NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION log_transaction_changes();
CREATE TRIGGER transactions_changes_update AFTER UPDATE ON "transactions"
  REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION log_transaction_changes();
CREATE TRIGGER transactions_changes_delete AFTER DELETE ON "transactions"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION log_transaction_changes();
CREATE TRIGGER transactions_changes_truncate AFTER TRUNCATE ON "transactions"
  FOR EACH STATEMENT EXECUTE FUNCTION log_reset();

-- `updated_since` on a player's transactions: a range scan of the player's rows by update time.
CREATE INDEX "transactions_player_updated_at_idx" ON "transactions"("player_id", "updated_at");
-- None on players.updated_at: nothing reads players by it (a profile syncer follows the feed), and an index on a
-- column every balance update changes would make each of the ingest's player updates non-HOT, writing a new
-- entry into every index of players (three of them trigram GINs) per batch and player.

ALTER TYPE "audit_operation" ADD VALUE 'changes';
