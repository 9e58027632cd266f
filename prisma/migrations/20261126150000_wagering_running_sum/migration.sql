-- The live consumer re-read every touched player's bets since their newest bonus grant in each batch, to compute
-- `wr`: a range that grows with the player's history (at 2,000 events/s for 45 s, 156 bets per player and 36 of
-- the statement's 46 ms; the statement's time per batch tripled over a minute). It now keeps that sum per player
-- and moves it by the batch's own bets while the grant stays (lib/ingest/apply-sql.ts). NULL grant date: not known
-- (a new player, a full refresh): the next batch reads the sum whole.
ALTER TABLE "players" ADD COLUMN "wr_grant_date" TIMESTAMPTZ(3);
ALTER TABLE "players" ADD COLUMN "wr_bets" DECIMAL(20,8) NOT NULL DEFAULT 0;
