-- An audit record's time is the database's, not the writer's: a role that may only append (the app's, made by
-- `npm run db:roles`) cannot backdate a read. Each row inserted by such a role gets the time of its INSERT
-- statement (the app writes a read's row before the read is answered, so that is within the read's request).
-- The table's owner (and a superuser) keeps the time it gives: it migrates and imports history, and could turn
-- this trigger off anyway.
CREATE FUNCTION "audit_events_stamp_time"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF NOT pg_has_role(current_user, (SELECT c.relowner FROM pg_class c WHERE c.oid = TG_RELID), 'USAGE') THEN
    NEW.occurred_at := statement_timestamp();
  END IF;
  RETURN NEW;
END;
$$;

CREATE TRIGGER "audit_events_stamp_time" BEFORE INSERT ON "audit_events"
  FOR EACH ROW EXECUTE FUNCTION "audit_events_stamp_time"();
