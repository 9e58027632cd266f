-- The period summary counts and sums bonus grants (positive completed bonus amounts) row by row: the daily stats
-- keep absolute amounts only. The type/amount index reached those rows but had to visit the heap for completed_at
-- (the 1.25M-transaction whale: 7,203 grants, 7,199 heap pages, 39 ms cold). This partial index holds only the
-- grants, with their amount, in (player, date) order: an index-only scan for any period (1.4 ms cold, 2.2 MB for
-- 10M transactions). Prisma's schema cannot state a partial index (preview feature off); it is kept here only.
CREATE INDEX "transactions_bonus_grants_idx" ON "transactions"("player_id", "date") INCLUDE ("amount")
  WHERE "event_type" = 'bonus' AND "amount" > 0 AND "completed_at" IS NOT NULL;
