-- Totals and deep offsets sum n over a player's days: with n in an index they read the index alone.
CREATE INDEX "transaction_daily_stats_counts_idx" ON "transaction_daily_stats"("player_id", "day", "event_type", "event_name", "created_by", "n");
