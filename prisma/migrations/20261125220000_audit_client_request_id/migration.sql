-- The request id of a record is the server's own; a client's X-Request-ID is kept beside it (it was the record's id
-- before, so a client could choose it). text_replaced marks a record some of whose text could not be stored as sent.
ALTER TABLE "audit_events" ADD COLUMN "client_request_id" TEXT,
  ADD COLUMN "text_replaced" BOOLEAN NOT NULL DEFAULT false;
