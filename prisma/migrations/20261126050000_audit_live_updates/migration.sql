-- Opening a live-update stream of a player (GET /api/v1/players/{id}/events) tells the caller when the player's
-- account moves: it is audited once per stream (the nudges on it carry nothing more and are not).
ALTER TYPE "audit_operation" ADD VALUE 'live_updates';
