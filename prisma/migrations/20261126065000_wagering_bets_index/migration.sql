-- The wagering still required (players.wr) sums a player's bets since the newest completed bonus grant. Every
-- ingest batch recomputes it for the players it touched; through transactions_player_type_date_id_idx that is one
-- heap visit per bet (0.48 ms for a player with 227 such bets, 100 ms of a 1,000-event batch of 200 players).
-- A partial covering index makes it an index-only scan (1.1k buffers instead of 97k for 200 players).
CREATE INDEX "transactions_wagering_bets_idx" ON "transactions"("player_id", "date") INCLUDE ("amount")
  WHERE "event_type" = 'bet' AND "status" IN ('pending', 'completed');
