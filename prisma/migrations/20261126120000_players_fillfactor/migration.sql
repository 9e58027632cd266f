-- Room on each page of players for the live consumer's updates (issue 24). Every batch updates each touched
-- player's balances and KPIs; none of those columns is indexed, so the update can be HOT (no index entry) when
-- the new row version fits on the old one's page. Packed full, the page has no room: every update wrote a new
-- entry into each of players' seven indexes, three of them trigram GINs (measured: 8 of 7,619 updates HOT; with
-- fillfactor 50, 6,006 of 11,690). Applies to pages written from now on; `VACUUM FULL players` repacks at once.
ALTER TABLE "players" SET (fillfactor = 50);
