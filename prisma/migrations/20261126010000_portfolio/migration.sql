-- The VIP manager's portfolio (GET /api/v1/portfolio, lib/players/get-portfolio.ts).

-- A manager's book: the players whose vip_manager it is, in id order, without reading the whole players table.
CREATE INDEX "players_vip_manager_id_idx" ON "players"("vip_manager", "id");

-- Pending withdrawals (completed_at IS NULL) per player: their count, sum and oldest request. They are few and
-- recent, but nothing else reaches them without stepping over every completed withdrawal of the player (the
-- daily stats count pending rows per day but keep no pending amounts). A partial index holds only them, with their
-- amount: an index-only probe per player. Prisma's schema cannot state a partial index; it is kept here only.
CREATE INDEX "transactions_pending_withdrawals_idx" ON "transactions"("player_id", "date") INCLUDE ("amount")
  WHERE "event_type" = 'withdrawal' AND "completed_at" IS NULL;

-- The audit trail records a portfolio read like a search: the players returned in result_player_ids.
ALTER TYPE "audit_operation" ADD VALUE 'portfolio';
