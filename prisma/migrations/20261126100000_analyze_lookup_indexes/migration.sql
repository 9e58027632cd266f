-- Statistics for the expression indexes of 20261126030000_player_lookup_indexes. PostgreSQL gathers an expression
-- index's statistics only when the table is analyzed, and autovacuum analyzes a table only after enough of its
-- rows change: on a populated, read-mostly transactions table the new lower(id) index had none, so the planner
-- guessed 0.5% of the rows for `lower(id) = …` and answered the lookup's "ORDER BY id LIMIT 5" by walking the
-- primary key and filtering every row (24 s on 10M transactions; docs/performance.md, "Issue 23's targets on
-- 10M"). The statement no longer depends on this (lib/players/search-players.ts fences the match), but the
-- trigram and contact indexes' estimates do. ANALYZE samples (30,000 rows by default): 3 s on 10M transactions.
ANALYZE "transactions";
ANALYZE "players";
