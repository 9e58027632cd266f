-- The change feed's numbering at COMMIT (20261126070000_change_feed) found the transaction's own entries by
-- `position IS NULL`. Every entry is written with a NULL position and then numbered, so until VACUUM the index on
-- position holds a NULL entry for each of them: at 300,000 entries one commit's count visited 301,000 index entries
-- and 3,718 heap pages (27 ms), and the numbering UPDATE as much again. In `npm run bench:ingest` (60 s at 2,000
-- events/s, no VACUUM in between) COMMIT grew to 35 ms per batch, a third of the database's time.
--
-- Now the transaction notes where the sequence of `changes.seq` stood when it first wrote an entry; its entries all
-- come after it (a sequence only grows), so the numbering reads a range of the primary key: O(its own entries).
ALTER TABLE "change_commits" ADD COLUMN "from_seq" BIGINT NOT NULL DEFAULT 0;

CREATE OR REPLACE FUNCTION change_log_open() RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  -- last_value: the last seq handed out by anyone (or, before the first, the first to come); ours are >= it.
  INSERT INTO change_commits (xact, from_seq)
  VALUES (pg_current_xact_id()::text::bigint, (SELECT last_value FROM changes_seq_seq))
  ON CONFLICT DO NOTHING;
  RETURN NOT EXISTS (SELECT 1 FROM changes WHERE position IS NULL AND dedupe_key = 'reset');
END $$;

CREATE OR REPLACE FUNCTION number_changes() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  n bigint;
  base bigint;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('par:changes'));
  -- Unnumbered and visible here: only this transaction's own entries (others' are numbered before they commit).
  SELECT count(*) INTO n FROM changes WHERE seq >= NEW.from_seq AND position IS NULL;
  IF n > 0 THEN
    -- Under the lock nobody else draws from the sequence: reserve n positions at once.
    base := nextval('change_position');
    IF n > 1 THEN PERFORM setval('change_position', base + n - 1); END IF;
    UPDATE changes c SET position = base + o.rn - 1
    FROM (
      SELECT seq, row_number() OVER (ORDER BY seq) AS rn FROM changes WHERE seq >= NEW.from_seq AND position IS NULL
    ) o
    WHERE c.seq = o.seq;
  END IF;
  DELETE FROM change_commits WHERE xact = NEW.xact;
  RETURN NULL;
END $$;

-- A range of the primary key, whatever the statistics say: on a table not yet analyzed (a new database under load)
-- the planner chose a sequential scan of every entry, and with statistics a bitmap of the position index's NULLs.
ALTER FUNCTION number_changes() SET enable_seqscan = off;
ALTER FUNCTION number_changes() SET enable_bitmapscan = off;
