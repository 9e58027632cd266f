-- The NDJSON export of profiles (GET /api/v1/exports/players) is audited per batch of players sent: one row per
-- batch, its players in result_player_ids, all rows of one export sharing its request_id (docs/decisions.md,
-- "Auditing the profiles export"). Added at the end of the enum: existing values keep their order.
ALTER TYPE "audit_operation" ADD VALUE 'profiles_export';
