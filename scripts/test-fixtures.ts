import type { Pool } from "pg";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "../lib/db/refresh-player-aggregates.ts";

/**
 * Hand-made players whose transactions sit exactly on the edges the tests probe (ties, bounds,
 * decimals that drift in floating point). Loaded after the demo data; ids start with "PTEST".
 */
export const FIXTURE_PLAYER_ID = "PTEST0001";
export const EMPTY_FIXTURE_PLAYER_ID = "PTEST0002";

export async function loadTestFixtures(pool: Pool): Promise<void> {
  await pool.query(
    `INSERT INTO players (id, name, email, phone, currency, language, registration_date, kyc_status, withdrawal_status, blocked, segments)
     VALUES ($1, 'Fixture Player', 'fixture.player@example.com', '+44 7000000001', 'EUR', 'English', '2025-01-01T00:00:00Z', 'approved', 'allowed', false, '{test_fixture}'),
            ($2, 'Empty Fixture', NULL, NULL, 'USD', NULL, '2025-06-01T00:00:00Z', 'not_started', NULL, false, '{}')`,
    [FIXTURE_PLAYER_ID, EMPTY_FIXTURE_PLAYER_ID],
  );
  // Transactions for the edge tests are added here by the test suite's fixtures (see e2e/ and lib tests).
  await pool.query(REFRESH_PLAYER_AGGREGATES_SQL, [[FIXTURE_PLAYER_ID, EMPTY_FIXTURE_PLAYER_ID]]);
}
