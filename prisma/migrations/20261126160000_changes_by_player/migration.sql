-- The change feed by player: which of a book's players changed after a position (the portfolio's kept books,
-- lib/players/get-portfolio.ts), one index probe per player whatever the volume of changes since. The NULL
-- player_id entries are the `reset`s, found by the same index.
CREATE INDEX "changes_player_position_idx" ON "changes"("player_id", "position");
