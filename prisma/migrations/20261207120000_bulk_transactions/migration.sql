-- GET /api/v1/transactions: every player's transactions in (updated_at, id) order, keyset-paged. A page is a range
-- scan of this index from the cursor's key, whatever its depth. Each page is audited as `transactions_bulk`, its
-- players in result_player_ids. Added at the end of the enum: existing values keep their order.
ALTER TYPE "audit_operation" ADD VALUE 'transactions_bulk';

CREATE INDEX "transactions_updated_at_id_idx" ON "transactions"("updated_at", "id");
