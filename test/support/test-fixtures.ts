import type { Pool } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "../../platform/db/refresh-player-aggregates.ts";

/**
 * Hand-made players whose transactions sit exactly on the edges the tests probe (ties, bounds,
 * decimals that drift in floating point). Loaded after the demo data; ids start with "PTEST".
 */
export const FIXTURE_PLAYER_ID = "PTEST0001";
export const EMPTY_FIXTURE_PLAYER_ID = "PTEST0002";

/** Every read operation of /api/v1 once, on the fixture player, each answering 200 to an admin as it stands. */
export const FIXTURE_READ_ROUTES = [
  "/api/v1/players?q=Fixture",
  `/api/v1/players/${FIXTURE_PLAYER_ID}`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions/export`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transaction-facets`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transaction-totals`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/monthly-activity`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/summary`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/audit`,
  "/api/v1/audit",
] as const;
/** A player whose name holds LIKE wildcards and non-ASCII letters, for the search tests. */
export const WILDCARD_FIXTURE_PLAYER_ID = "PTEST0003";
export const WILDCARD_FIXTURE_NAME = "Zoë O'Hara_100%";

export interface FixtureTransaction {
  id: string;
  /** As written into the database: some carry non-UTC offsets on purpose. */
  date: string;
  event_type: "deposit" | "withdrawal" | "bonus" | "bet" | "win" | "adjustment" | "refund";
  event_name: string;
  event_note: string | null;
  amount: string;
  payment_method: string | null;
  created_by: "System" | "VIP Manager" | "Admin";
  created_at: string;
  completed_at: string | null;
}

/** The instants the bound tests filter on; fixtures sit exactly on them and 1 ms outside. */
export const FIXTURE_BOUNDS = {
  from: "2025-03-10T00:00:00.000Z",
  to: "2025-03-10T12:00:00.000Z",
  /** A whole UTC day with transactions at its first and last millisecond and 1 ms either side. */
  day: "2025-03-10",
  /** Three transactions share this instant (written with different offsets); ties go by id DESC. */
  tie: "2025-03-01T10:00:00.000Z",
} as const;

const tx = (
  id: string,
  date: string,
  event_type: FixtureTransaction["event_type"],
  event_name: string,
  amount: string,
  more: Partial<Omit<FixtureTransaction, "id" | "date" | "event_type" | "event_name" | "amount">> = {},
): FixtureTransaction => ({
  id,
  date,
  event_type,
  event_name,
  amount,
  event_note: null,
  payment_method: null,
  created_by: "System",
  created_at: date,
  completed_at: date,
  ...more,
});

/**
 * PTEST0001's history, in insertion order (deliberately not the response order, so ordering must
 * come from the query). Ids are upper-case letters and digits of one length so that every collation
 * sorts them alike.
 */
export const FIXTURE_TRANSACTIONS: readonly FixtureTransaction[] = [
  // Identical instants: 0.1 + 0.2 + 0.3 = 0.6 exactly, never 0.6000000000000001.
  tx("FX0102", "2025-03-01T10:00:00.000Z", "deposit", "E-Wallet Deposit", "0.2", {
    payment_method: "PayPal",
  }),
  tx("FX0103", "2025-03-01T12:00:00+02:00", "deposit", "Bank Transfer Deposit", "0.30000000", {
    payment_method: "Trustly",
  }),
  tx("FX0101", "2025-03-01T05:00:00-05:00", "deposit", "Card Deposit", "0.1", { payment_method: "Visa" }),
  tx("FX0201", "2025-03-05T12:00:00.000Z", "win", "Casino Win", "123456789012.12345678", {
    event_note: "Mega Moolah",
  }),
  tx("FX0202", "2025-03-06T08:00:00-05:00", "adjustment", "Balance Correction", "-0.00000001", {
    event_note: "Ticket #12345",
    created_by: "Admin",
    created_at: "2025-03-06T13:30:00.000Z",
    completed_at: "2025-03-06T13:30:00.000Z",
  }),
  tx("FX0203", "2025-03-07T09:00:00.000Z", "bonus", "VIP Bonus", "50", {
    event_note: "Granted by Sarah Mitchell",
    created_by: "VIP Manager",
    created_at: "2025-03-07T09:10:00.000Z",
  }),
  tx("FX0204", "2025-03-07T10:00:00.000Z", "adjustment", "Goodwill Adjustment", "5", {
    event_note: "Retention gesture",
    created_by: "VIP Manager",
  }),
  tx("FX0205", "2025-03-08T10:00:00.000Z", "bet", "Casino Bet", "-10", { event_note: "Starburst" }),
  tx("FX0206", "2025-03-08T11:00:00.000Z", "refund", "Bet Refund", "10", {
    event_note: "Voided: Starburst",
    created_by: "Admin",
  }),
  // Pending: no completed_at.
  tx("FX0207", "2025-03-09T09:00:00.000Z", "withdrawal", "Card Withdrawal", "-5", {
    event_note: "Awaiting payment processor",
    payment_method: "Visa",
    completed_at: null,
  }),
  tx("FX0208", "2025-03-09T10:00:00.000Z", "deposit", "Card Deposit", "1000", {
    payment_method: "Mastercard",
    completed_at: null,
  }),
  // Bounds: from = 2025-03-10T00:00:00.000Z, to = 2025-03-10T12:00:00.000Z.
  tx("FX0301", "2025-03-09T23:59:59.999Z", "bet", "Casino Bet", "-1", { event_note: "1 ms before from" }),
  tx("FX0302", "2025-03-10T05:30:00+05:30", "bet", "Casino Bet", "-1", { event_note: "exactly at from" }),
  tx("FX0303", "2025-03-10T06:00:00.000Z", "win", "Casino Win", "2", { event_note: "between the bounds" }),
  tx("FX0304", "2025-03-10T12:00:00.000Z", "win", "Casino Win", "2", { event_note: "exactly at to" }),
  tx("FX0305", "2025-03-10T13:00:00.001+01:00", "bet", "Casino Bet", "-1", { event_note: "1 ms after to" }),
  tx("FX0306", "2025-03-10T23:59:59.999Z", "bet", "Live Casino Bet", "-1", {
    event_note: "last ms of the day",
  }),
  tx("FX0307", "2025-03-11T00:00:00.000Z", "win", "Live Casino Win", "1", {
    event_note: "first ms of next day",
  }),
  tx("FX0401", "2025-03-12T09:00:00.000Z", "withdrawal", "Bank Withdrawal", "-3", {
    payment_method: "Bank Transfer",
    completed_at: "2025-03-12T15:00:00.000Z",
  }),
];

export async function loadTestFixtures(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO players (id, name, email, phone, currency, language, registration_date, kyc_status, withdrawal_status, blocked, segments)
     VALUES ($1, 'Fixture Player', 'fixture.player@example.com', '+44 7000000001', 'EUR', 'English', '2025-01-01T00:00:00Z', 'approved', 'allowed', false, '{test_fixture}'),
            ($2, 'Empty Fixture', NULL, NULL, 'USD', NULL, '2025-06-01T00:00:00Z', 'not_started', NULL, false, '{}'),
            ($3, $4, 'zoe.ohara@example.com', NULL, 'EUR', 'English', '2025-06-01T00:00:00Z', 'pending', 'on_hold', false, '{test_fixture}')`,
    [FIXTURE_PLAYER_ID, EMPTY_FIXTURE_PLAYER_ID, WILDCARD_FIXTURE_PLAYER_ID, WILDCARD_FIXTURE_NAME],
  );
  await pool.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, event_note, amount, currency, payment_method, created_by, created_at, completed_at, status)
     SELECT x.id, $1, x.date, x.event_type, x.event_name, x.event_note, x.amount, 'EUR', x.payment_method, x.created_by, x.created_at, x.completed_at,
            (CASE WHEN x.completed_at IS NULL THEN 'pending' ELSE 'completed' END)::transaction_status
     FROM json_to_recordset($2::json) AS x(id text, date timestamptz, event_type event_type, event_name text, event_note text,
       amount numeric, payment_method text, created_by text, created_at timestamptz, completed_at timestamptz)`,
    [FIXTURE_PLAYER_ID, JSON.stringify(FIXTURE_TRANSACTIONS)],
  );
  await pool.query(REFRESH_PLAYER_AGGREGATES_SQL, [
    [FIXTURE_PLAYER_ID, EMPTY_FIXTURE_PLAYER_ID, WILDCARD_FIXTURE_PLAYER_ID],
  ]);
}
