import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "./refresh-player-aggregates.ts";

/*
 * The balances and KPIs count money that moved (docs/decisions.md, "Money that moved"): a player whose every
 * flow also has failed, cancelled and pending rows, each dated where it would change a figure if it counted.
 */
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
const PLAYER = "PUIKPIMOVED1";

// id, date, type, amount, status
const ROWS: [string, string, string, string, string][] = [
  ["d0", "2026-02-28T10:00:00.000Z", "deposit", "500", "failed"], // older than the first completed: not the FTD
  ["d1", "2026-03-01T10:00:00.000Z", "deposit", "100", "completed"],
  ["d2", "2026-03-02T10:00:00.000Z", "deposit", "50", "completed"],
  ["d3", "2026-03-03T10:00:00.000Z", "deposit", "200", "failed"],
  ["d4", "2026-03-04T10:00:00.000Z", "deposit", "30", "cancelled"],
  ["d5", "2026-03-05T10:00:00.000Z", "deposit", "70", "pending"], // newest deposit: not the last completed
  ["w1", "2026-03-06T10:00:00.000Z", "withdrawal", "-40", "completed"],
  ["w2", "2026-03-07T10:00:00.000Z", "withdrawal", "-25", "pending"], // reserved at once
  ["w3", "2026-03-08T10:00:00.000Z", "withdrawal", "-300", "failed"], // newest withdrawal: released
  ["w4", "2026-03-09T10:00:00.000Z", "withdrawal", "-15", "cancelled"],
  ["g1", "2026-03-10T10:00:00.000Z", "bonus", "10", "completed"],
  ["g2", "2026-03-11T10:00:00.000Z", "bonus", "5", "failed"], // newer grant that never happened
  ["b1", "2026-03-12T10:00:00.000Z", "bet", "-4", "completed"],
  ["b2", "2026-03-13T10:00:00.000Z", "bet", "-6", "failed"],
  ["b3", "2026-03-14T10:00:00.000Z", "bet", "-9", "cancelled"],
  ["n1", "2026-03-15T10:00:00.000Z", "win", "12", "failed"],
];

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date, withdrawal_status)
     VALUES ($1, 'KPI Fixture', 'SEK', '2025-01-01', 'allowed')`,
    [PLAYER],
  );
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT $1 || '-' || r.id, $1, r.date, r.type::event_type, initcap(r.type), r.amount::numeric, 'SEK', 'System',
            r.date, CASE WHEN r.status = 'completed' THEN r.date END, r.status::transaction_status
     FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])
          AS r(id, date, type, amount, status)`,
    [PLAYER, ...[0, 1, 2, 3, 4].map((i) => ROWS.map((r) => r[i]))],
  );
  await sql.query(REFRESH_PLAYER_AGGREGATES_SQL, [[PLAYER]]);
});

afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = $1", [PLAYER]);
  await sql.end();
});

describe("REFRESH_PLAYER_AGGREGATES_SQL: money that did not move", () => {
  it("counts completed money in the KPIs; failed and cancelled in none, pending only where reserved", async () => {
    const { rows } = await sql.query(
      `SELECT trim_scale(ltd)::text AS ltd, trim_scale(ltw)::text AS ltw, trim_scale(ltnc)::text AS ltnc,
              trim_scale(cash_balance)::text AS cash, trim_scale(bonus_balance)::text AS bonus,
              trim_scale(total_balance)::text AS total, trim_scale(pending_withdrawal)::text AS pending,
              trim_scale(withdrawable_balance)::text AS withdrawable, ftd_date,
              trim_scale(last_deposit_amount)::text AS last_deposit, last_deposit_date,
              trim_scale(last_withdrawal_amount)::text AS last_withdrawal, last_withdrawal_status,
              active_bonus, trim_scale(wr)::text AS wr
       FROM players WHERE id = $1`,
      [PLAYER],
    );
    expect(rows[0]).toEqual({
      ltd: "150", // 100 + 50: not the failed 500 and 200, the cancelled 30 or the pending 70
      ltw: "40",
      ltnc: "110",
      // 150 − 40 − 25 (the pending withdrawal, reserved) − 4 (the completed bet); the failed win paid nothing.
      cash: "81",
      bonus: "10",
      total: "91",
      pending: "25",
      withdrawable: "81",
      ftd_date: new Date("2026-03-01T10:00:00.000Z"),
      last_deposit: "50",
      last_deposit_date: new Date("2026-03-02T10:00:00.000Z"),
      last_withdrawal: "25", // the newest pending or completed one
      last_withdrawal_status: "pending",
      active_bonus: true,
      wr: "296", // 30 × 10 (the completed grant) − 4 (the completed bet since; not the failed or cancelled ones)
    });
  });
});
