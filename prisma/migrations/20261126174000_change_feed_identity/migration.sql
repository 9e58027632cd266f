-- The change feed's identity and its pruning horizon (docs/change-feed.md, "Which feed"). A position means
-- something only in the feed that issued it: every GET /changes answer names its feed (`feed`), and a client that
-- sends it back with `after` is answered 410 when it is not this database's feed, or when entries after its
-- position were deleted.
--
-- The identity cannot be a stored value alone: a dump (or a point-in-time recovery) carries the table contents
-- with it. It is a hash of what a copy cannot carry:
--   - the cluster's system identifier (pg_control_system(): chosen at initdb; another server, another value),
--   - the current WAL timeline (a point-in-time recovery, a restored base backup or a promoted standby ends its
--     recovery on a new timeline; a standby reports the timeline of its last restartpoint),
--   - the database's oid (a re-created database, a dump restored into another database of the same cluster),
--   - the oid of the table change_feed itself (a dump restored, even into the same database, re-creates it),
--   - a random epoch stored in change_feed: rotate_change_feed() draws a new one (an operator's feed reset, e.g.
--     after restoring a file-system snapshot, which none of the above can tell apart), and so does a TRUNCATE of
--     the log.
CREATE TABLE "change_feed" (
  -- One row: the check keeps it that way.
  "id" BOOLEAN NOT NULL DEFAULT true,
  "epoch" UUID NOT NULL DEFAULT gen_random_uuid(),
  -- The highest position ever deleted from the log: a client positioned below it may have missed entries.
  "pruned_through" BIGINT NOT NULL DEFAULT 0,
  "rotated_at" TIMESTAMPTZ(3) NOT NULL DEFAULT now(),
  CONSTRAINT "change_feed_pkey" PRIMARY KEY ("id"),
  CONSTRAINT "change_feed_one_row" CHECK ("id")
);

-- A log pruned before this migration (docs said `DELETE FROM changes WHERE position < …`): everything below the
-- oldest kept entry counts as pruned; an empty log, everything the numbering ever handed out.
INSERT INTO "change_feed" ("pruned_through")
SELECT COALESCE(
  (SELECT min(position) - 1 FROM changes),
  (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_position)
);

-- The feed's name, as GET /changes answers it: 32 hex digits, opaque. Read per request in the page's statement
-- (a few microseconds: two reads of pg_control), so it is right even when a connection pool's server changes.
CREATE FUNCTION change_feed_id() RETURNS text LANGUAGE sql AS $$
  SELECT left(encode(sha256(convert_to(concat_ws(':',
    (SELECT system_identifier FROM pg_control_system()),
    -- A primary's current timeline is its WAL insert position's; pg_control's checkpoint lags a promotion.
    CASE WHEN pg_is_in_recovery() THEN lpad(to_hex((SELECT timeline_id FROM pg_control_checkpoint())), 8, '0')
      ELSE left(pg_walfile_name(pg_current_wal_lsn()), 8) END,
    (SELECT oid FROM pg_database WHERE datname = current_database()),
    f.tableoid,
    f.epoch), 'UTF8')), 'hex'), 32)
  FROM change_feed f
$$;

-- A feed reset: every `feed` handed out so far is refused (410) from now on. Returns the new feed.
CREATE FUNCTION rotate_change_feed() RETURNS text LANGUAGE sql AS $$
  UPDATE change_feed SET epoch = gen_random_uuid(), rotated_at = now();
  SELECT change_feed_id();
$$;

-- Whoever deletes entries (pruning, by hand or by a job) moves the horizon: a statement trigger, one UPDATE per
-- DELETE statement.
CREATE FUNCTION note_pruned_changes() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE change_feed f SET pruned_through = d.top
  FROM (SELECT max(position) AS top FROM old_rows) d
  WHERE d.top > f.pruned_through;
  RETURN NULL;
END $$;

CREATE TRIGGER changes_pruned AFTER DELETE ON "changes"
  REFERENCING OLD TABLE AS old_rows FOR EACH STATEMENT EXECUTE FUNCTION note_pruned_changes();

-- Emptying the log is a feed reset: positions issued so far are gone. The numbering goes on from where it stood
-- (never set change_position back: a position at or below the horizon would be skipped by a resuming client).
CREATE FUNCTION reset_change_feed_on_truncate() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE change_feed SET pruned_through = greatest(pruned_through,
    (SELECT CASE WHEN is_called THEN last_value ELSE 0 END FROM change_position));
  PERFORM rotate_change_feed();
  RETURN NULL;
END $$;

CREATE TRIGGER changes_truncated AFTER TRUNCATE ON "changes"
  FOR EACH STATEMENT EXECUTE FUNCTION reset_change_feed_on_truncate();
