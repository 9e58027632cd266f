-- A pending withdrawal is `status = 'pending'`: since failed and cancelled transactions joined the read model
-- (20261126040000_live_wallet_events) they too have no completed_at, and must not count as pending in the
-- portfolio. The portfolio's partial index (20261126010000_portfolio) is rebuilt on the status.
DROP INDEX IF EXISTS "transactions_pending_withdrawals_idx";
CREATE INDEX "transactions_pending_withdrawals_idx" ON "transactions"("player_id", "date") INCLUDE ("amount")
  WHERE "event_type" = 'withdrawal' AND "status" = 'pending';
