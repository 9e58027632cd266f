-- Sorting by amount (sort=amount_desc|amount_asc) orders by size, abs(amount): "largest amount first" on
-- withdrawals (all negative) must list −2,073 before −145. Expression indexes give that order as an index range
-- scan (ascending reads them backwards), id breaking ties in the same direction; the event_type variant keeps a
-- filtered amount sort (withdrawals only) from stepping over every other type's rows. prisma/schema.prisma cannot
-- state an expression index: these live here only (a comment in the schema says so).
CREATE INDEX "transactions_player_abs_amount_id_idx" ON "transactions"("player_id", abs("amount") DESC, "id" DESC);
CREATE INDEX "transactions_player_type_abs_amount_id_idx" ON "transactions"("player_id", "event_type", abs("amount") DESC, "id" DESC);

-- The signed-amount indexes served only the old order: nothing reads by signed amount any more, and each index
-- costs every insert.
DROP INDEX "transactions_player_amount_id_idx";
DROP INDEX "transactions_player_type_amount_id_idx";

-- The "Last withdrawal" figure shows when it was requested: its date beside its amount and status, kept by the
-- same refresh (lib/db/refresh-player-aggregates.ts). Filled here for the players there are: one probe of
-- (player_id, event_type, date DESC, id DESC) per player with a withdrawal.
ALTER TABLE "players" ADD COLUMN "last_withdrawal_date" TIMESTAMPTZ(3);
UPDATE "players" p SET "last_withdrawal_date" = (
  SELECT t."date" FROM "transactions" t
  WHERE t."player_id" = p."id" AND t."event_type" = 'withdrawal'
  ORDER BY t."date" DESC, t."id" DESC LIMIT 1
) WHERE p."last_withdrawal_amount" IS NOT NULL;

-- The totals row under a filtered transaction list (GET …/transaction-totals) is a read of player data: audited.
ALTER TYPE "audit_operation" ADD VALUE 'transaction_totals';
