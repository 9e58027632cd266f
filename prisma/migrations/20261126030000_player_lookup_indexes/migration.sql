-- The support lookup (issue 23): names without accents or case, exact contact matches, transaction ids.
-- Both extensions are "trusted" (a database owner may create them) and both ship with PGlite's contrib, which
-- lib/db/embedded.ts loads. Prisma's schema cannot state extensions, functions or expression indexes (preview
-- features off): they are kept here only, and prisma/schema.prisma names them in comments.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE EXTENSION IF NOT EXISTS unaccent;

-- unaccent() is only STABLE (its dictionary could be changed), so it cannot be indexed as it is. Naming the
-- dictionary makes the result depend on the argument alone: IMMUTABLE is then true for as long as nobody edits
-- unaccent.rules, the usual and documented practice. "Zoé Côté" → "zoe cote".
CREATE FUNCTION fold_search_text(text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE STRICT
  RETURN lower(public.unaccent('public.unaccent'::regdictionary, $1));

-- A name typed in part, any case, with or without accents: a trigram index answers LIKE '%…%' on the folded
-- name (3 characters or more; shorter terms scan).
CREATE INDEX "players_name_folded_trgm_idx" ON "players" USING gin (fold_search_text("name") gin_trgm_ops);
-- A player id typed in part, any case, the same way (on lower(id): an expression, like the name's).
CREATE INDEX "players_id_lower_trgm_idx" ON "players" USING gin (lower("id") gin_trgm_ops);
-- An e-mail address in part, for callers who may see contact data (the same trigram way).
CREATE INDEX "players_email_lower_trgm_idx" ON "players" USING gin (lower("email") gin_trgm_ops);
-- Exact contact matches: an e-mail address in any case, a phone number as its digits (E.164 without the "+").
CREATE INDEX "players_email_lower_idx" ON "players" (lower("email"));
CREATE INDEX "players_phone_digits_idx" ON "players" (regexp_replace("phone", '\D', '', 'g'));

-- A transaction id typed in the lookup, any case, across all players.
CREATE INDEX "transactions_id_lower_idx" ON "transactions" (lower("id"));

-- The audit page's user filter by display name or its beginning, any case (LIKE 'ana%': text_pattern_ops, so
-- the prefix is an index range whatever the database's collation).
CREATE INDEX "audit_events_subject_name_lower_idx" ON "audit_events" (lower("subject_name") text_pattern_ops);
