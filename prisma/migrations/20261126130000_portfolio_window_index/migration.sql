-- The portfolio (issue 23) sums each player's last 91 days of completed flows from the per-day stats. Through
-- transaction_daily_stats_flows_idx (player, event type, day) a day range is not one range: the scan stepped over
-- every day of every type of the player's history and filtered the days (69,824 entries read for the 10,978 in
-- the window, a book of 1,000 on 10M transactions). Keyed by (player, day), the window is one index range, and
-- the columns the portfolio reads follow in the key (not INCLUDE, which the schema cannot state): an index-only
-- scan of exactly the window's entries.
CREATE INDEX "transaction_daily_stats_window_idx" ON "transaction_daily_stats"("player_id", "day", "event_type", "completed_n", "completed_amount");
