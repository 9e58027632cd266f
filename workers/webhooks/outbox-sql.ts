import { settingsSchema } from "@/features/players/schema/player";
import { PLAYER_EVENT_COLUMNS, TRANSACTION_EVENT_COLUMNS } from "@/workers/ingest/apply-sql";

/*
 * The transactional outbox (docs/webhooks.md): run by workers/ingest/apply-batch.ts inside the batch's database
 * transaction, under its batch lock, BEFORE the statements that write the profiles and transactions, so each
 * compares an incoming record with the row it is about to replace. One row per (event, subscribed active
 * endpoint); the event id is derived from (type, record id, version) (an MD5 name-based UUID, version 3), so a redelivered batch writes nothing twice
 * (ON CONFLICT DO NOTHING) and every endpoint sees the same id for the same event. A batch that rolls back takes
 * its outbox rows with it; one that commits has them, durable, before its events are acked.
 */

const ISO = (column: string) => `to_char(${column} AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * Inserts the events (CTE `events`: type, id, version, data json) for every active subscribed endpoint. Bodies are
 * built with row_to_json, which writes compact JSON (json_build_object would put spaces around every colon) and
 * numerics with their exact digits.
 */
const insertDeliveries = (endpointFilter: string) => `
INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, payload)
SELECT ev.event_id, e.id, ev.type,
  (SELECT row_to_json(body)::text FROM (SELECT ev.event_id AS id, ev.type AS type,
    ${ISO("now()")} AS created_at, ev.data AS data) body)
FROM (SELECT events.*, overlay(overlay(md5(type || ':' || id || ':' || version) placing '3' from 13)
  placing '8' from 17)::uuid::text AS event_id FROM events) ev
JOIN webhook_endpoints e ON e.active AND ev.type = ANY(e.event_types)${endpointFilter}
ON CONFLICT (event_id, endpoint_id) DO NOTHING`;

/** The profile's fields a `player.updated` compares (all the wallet's, but the id and the version). */
const PROFILE_FIELDS = PLAYER_EVENT_COLUMNS.split(",")
  .map((c) => c.trim().split(/\s+/)[0] ?? "")
  .filter((n) => n && n !== "id" && n !== "version");
/** Those the wallet's event nests in `settings` (features/players/schema/player.ts). */
const SETTINGS = new Set(Object.keys(settingsSchema.shape));
const fieldName = (n: string) => (SETTINGS.has(n) ? `settings.${n}` : n);
const profileValue = (n: string) =>
  n === "registration_date" || n === "last_login" ? `${ISO(`i.${n}`)} AS ${n}` : `i.${n}`;

/** The profile as the wallet's event carries it (timestamps as UTC with milliseconds), from the alias `i`. */
const PROFILE_JSON = `(SELECT row_to_json(d) FROM (SELECT i.id, ${PROFILE_FIELDS.filter(
  (n) => !SETTINGS.has(n),
)
  .map(profileValue)
  .join(", ")},
    (SELECT row_to_json(s) FROM (SELECT ${[...SETTINGS].map((n) => `i.${n}`).join(", ")}) s) AS settings,
    i.version) d)`;

/** The names of the fields that differ between the incoming profile `i` and the stored one `p`. */
const CHANGED_FIELDS = `array_remove(ARRAY[${PROFILE_FIELDS.map(
  (n) => `CASE WHEN i.${n} IS DISTINCT FROM p.${n} THEN '${fieldName(n)}' END`,
).join(", ")}]::text[], NULL)`;

/**
 * Profile events ($1: the batch's profile records, JSON): a KYC status change, a block, and any change
 * (player.updated, with the names of the fields that changed) of a player the read model knows, when the incoming
 * version will replace the stored one; player.created for a player it does not know yet (and only that).
 */
export const ENQUEUE_PLAYER_EVENTS_SQL = `
WITH incoming AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${PLAYER_EVENT_COLUMNS})
),
changes AS (
  SELECT i.*, p.kyc_status AS old_kyc, p.blocked AS old_blocked, p.withdrawal_status AS old_ws,
    p.version AS old_version,
    ${CHANGED_FIELDS} AS changed_fields,
    ${PROFILE_JSON} AS profile
  FROM incoming i JOIN players p ON p.id = i.id
  WHERE p.version < i.version
),
events AS (
  SELECT 'player.kyc_status_changed'::text AS type, c.id, c.version,
    (SELECT row_to_json(d) FROM (SELECT c.id AS player_id, c.kyc_status, c.old_kyc AS previous_kyc_status,
      c.version) d) AS data
  FROM changes c WHERE kyc_status IS DISTINCT FROM old_kyc
  UNION ALL
  SELECT 'player.blocked', c.id, c.version,
    (SELECT row_to_json(d) FROM (SELECT c.id AS player_id, c.blocked, c.withdrawal_status,
      c.old_blocked AS previous_blocked, c.old_ws AS previous_withdrawal_status, c.version) d)
  FROM changes c
  WHERE (blocked AND NOT old_blocked)
     OR (withdrawal_status IS DISTINCT FROM old_ws AND withdrawal_status IS NOT NULL
         AND withdrawal_status NOT IN ('allowed', 'on_hold'))
  UNION ALL
  SELECT 'player.updated', c.id, c.version,
    (SELECT row_to_json(d) FROM (SELECT c.id AS player_id, c.version, c.old_version AS previous_version,
      c.changed_fields, c.profile) d)
  FROM changes c WHERE cardinality(c.changed_fields) > 0
  UNION ALL
  SELECT 'player.created', i.id, i.version,
    (SELECT row_to_json(d) FROM (SELECT i.id AS player_id, i.version, ${PROFILE_JSON} AS profile) d)
  FROM incoming i WHERE NOT EXISTS (SELECT 1 FROM players p WHERE p.id = i.id)
)${insertDeliveries("")}`;

/** A transaction as the wallet's event carries it, from the alias `i`. */
const TRANSACTION_JSON = (extra = "") => `(SELECT row_to_json(d) FROM (SELECT i.id, i.player_id,
    ${ISO("i.date")} AS date, i.event_type, i.event_name, i.event_note, trim_scale(i.amount) AS amount, i.currency,
    i.payment_method, i.created_by, ${ISO("i.created_at")} AS created_at, ${ISO("i.completed_at")} AS completed_at,
    i.status, i.version${extra}) d)`;

/**
 * Transaction events ($1: the batch's transactions of known players, JSON, one record per id): a withdrawal that
 * arrives as pending, and a transaction whose |amount| reaches the endpoint's min_amount, both when the read model
 * sees the transaction for the first time; transaction.status_changed when a later version of a known transaction
 * changes its status (`previous_status` is the stored one).
 */
export const ENQUEUE_TRANSACTION_EVENTS_SQL = `
WITH incoming AS (
  SELECT * FROM jsonb_to_recordset($1::jsonb) AS x(${TRANSACTION_EVENT_COLUMNS})
),
fresh AS (
  SELECT i.*, ${TRANSACTION_JSON()} AS data
  FROM incoming i
  WHERE NOT EXISTS (SELECT 1 FROM transactions t WHERE t.id = i.id)
),
events AS (
  SELECT 'withdrawal.requested'::text AS type, id, version, data, amount FROM fresh
  WHERE event_type = 'withdrawal' AND status = 'pending'
  UNION ALL
  SELECT 'transaction.large', id, version, data, amount FROM fresh
  UNION ALL
  SELECT 'transaction.status_changed', i.id, i.version, ${TRANSACTION_JSON(", t.status AS previous_status")}, i.amount
  FROM incoming i JOIN transactions t ON t.id = i.id
  WHERE t.version < i.version AND t.status IS DISTINCT FROM i.status
)${insertDeliveries("\n  AND (ev.type <> 'transaction.large' OR abs(ev.amount) >= e.min_amount)")}`;
