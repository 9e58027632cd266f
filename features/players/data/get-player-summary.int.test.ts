import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { SUMMARY_PERIODS, type SummaryPeriod } from "@/features/players/schema/summary";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { createRng } from "@/prisma/demo-data/random";
import { EMPTY_PERIOD_FIGURES } from "@/test/support/period-figures";
import { createTestPrisma } from "@/test/support/test-client";
import { getPlayerSummary } from "./get-player-summary.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });

const EDGE_PLAYER = "PUISUMMARY1";
/** "Today" for the edge player: 2026-06-30; its 30-day period is 2026-06-01T00:00:00Z … 2026-07-01T00:00:00Z. */
const NOW = new Date("2026-06-30T09:15:00.000Z");

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Summary Fixture', 'EUR', '2025-01-01')`,
    [EDGE_PLAYER],
  );
  // id, date, type, amount, completed (true), pending (false), or failed / cancelled
  const rows: [string, string, string, string, boolean | "failed" | "cancelled"][] = [
    ["a", "2026-05-31T23:59:59.999Z", "deposit", "1000", true], // 1 ms before the period: out
    ["b", "2026-06-01T00:00:00.000Z", "deposit", "100.12345678", true], // first instant: in
    ["c", "2026-06-10T12:00:00.000Z", "deposit", "200", true],
    ["d", "2026-06-11T12:00:00.000Z", "deposit", "50", false], // pending: not counted, but activity
    ["e", "2026-06-12T12:00:00.000Z", "withdrawal", "-0.00000001", true],
    ["f", "2026-06-13T12:00:00.000Z", "bet", "-30", true],
    ["g", "2026-06-13T12:00:01.000Z", "bet", "-12.5", true],
    ["h", "2026-06-14T12:00:00.000Z", "win", "80", true], // the player won more than they bet
    ["i", "2026-06-15T12:00:00.000Z", "bonus", "25", true], // a grant
    ["j", "2026-06-16T12:00:00.000Z", "bonus", "-25", true], // its conversion: not a grant
    ["k", "2026-06-17T12:00:00.000Z", "bonus", "10", false], // a pending grant: not counted
    // Money that never moved: in no figure (dated inside the period, so it would show).
    ["n", "2026-06-20T12:00:00.000Z", "deposit", "400", "failed"],
    ["o", "2026-06-21T12:00:00.000Z", "withdrawal", "-60", "cancelled"],
    ["p", "2026-06-22T12:00:00.000Z", "bet", "-8", "failed"],
    ["q", "2026-06-23T12:00:00.000Z", "win", "9", "cancelled"],
    ["r", "2026-06-24T12:00:00.000Z", "bonus", "15", "failed"],
    ["s", "2026-05-20T12:00:00.000Z", "deposit", "70", "cancelled"], // the previous period's
    ["l", "2026-06-30T23:59:59.999Z", "adjustment", "1", true], // last instant of today: activity
    ["m", "2026-07-01T00:00:00.000Z", "deposit", "7", true], // tomorrow: out
  ];
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT $1 || '-' || r.id, $1, r.date, r.type::event_type, initcap(r.type), r.amount::numeric, 'EUR', 'System',
            r.date, CASE WHEN r.status = 'completed' THEN r.date END, r.status::transaction_status
     FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])
          AS r(id, date, type, amount, status)`,
    [
      EDGE_PLAYER,
      rows.map((r) => r[0]),
      rows.map((r) => r[1]),
      rows.map((r) => r[2]),
      rows.map((r) => r[3]),
      rows.map((r) => (r[4] === true ? "completed" : r[4] === false ? "pending" : r[4])),
    ],
  );
});
afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = $1", [EDGE_PLAYER]);
  await db.$disconnect();
  await sql.end();
});

const DAYS: Record<SummaryPeriod, number | null> = { "30d": 30, "90d": 90, "365d": 365, all: null };

/** Independent reference: the same figures as a plain aggregate over the transactions themselves. */
async function reference(playerId: string, period: SummaryPeriod, now: Date) {
  const days = DAYS[period];
  const today = now.toISOString().slice(0, 10);
  const { rows } = await sql.query(
    `WITH t AS (
       SELECT * FROM transactions
       WHERE player_id = $1
         AND ($2::int IS NULL OR date >= ($3::date - ($2::int - 1))::timestamp AT TIME ZONE 'UTC')
         AND ($2::int IS NULL OR date < ($3::date + 1)::timestamp AT TIME ZONE 'UTC')
     ), c AS (SELECT * FROM t WHERE completed_at IS NOT NULL)
     SELECT p.currency,
       (SELECT count(*)::int FROM c WHERE event_type = 'deposit') AS dn,
       (SELECT COALESCE(sum(abs(amount)), 0)::text FROM c WHERE event_type = 'deposit') AS ds,
       (SELECT round(avg(abs(amount)), 8)::text FROM c WHERE event_type = 'deposit') AS da,
       (SELECT count(*)::int FROM c WHERE event_type = 'withdrawal') AS wn,
       (SELECT COALESCE(sum(abs(amount)), 0)::text FROM c WHERE event_type = 'withdrawal') AS ws,
       (SELECT round(avg(abs(amount)), 8)::text FROM c WHERE event_type = 'withdrawal') AS wa,
       (SELECT COALESCE(sum(abs(amount)) FILTER (WHERE event_type = 'deposit'), 0)
             - COALESCE(sum(abs(amount)) FILTER (WHERE event_type = 'withdrawal'), 0) FROM c)::text AS net,
       (SELECT count(*)::int FROM c WHERE event_type = 'bet') AS bn,
       (SELECT COALESCE(sum(abs(amount)), 0)::text FROM c WHERE event_type = 'bet') AS bs,
       (SELECT count(*)::int FROM c WHERE event_type = 'win') AS winn,
       (SELECT COALESCE(sum(abs(amount)), 0)::text FROM c WHERE event_type = 'win') AS wins,
       (SELECT COALESCE(sum(abs(amount)) FILTER (WHERE event_type = 'bet'), 0)
             - COALESCE(sum(abs(amount)) FILTER (WHERE event_type = 'win'), 0) FROM c)::text AS ggr,
       (SELECT count(*)::int FROM c WHERE event_type = 'bonus' AND amount > 0) AS gn,
       (SELECT COALESCE(sum(amount), 0)::text FROM c WHERE event_type = 'bonus' AND amount > 0) AS gs,
       (SELECT min(date) FROM t) AS first, (SELECT max(date) FROM t) AS last
     FROM players p WHERE p.id = $1`,
    [playerId, days, today],
  );
  const r = rows[0];
  const num = (text: string | null) => (text === null ? null : ExactNumber.normalize(text));
  // A flow's count and sum, and its average where it has one (deposits, withdrawals).
  const flow = (count: number, sum: string, average?: string | null) => ({
    count,
    sum: num(sum),
    ...(average === undefined ? {} : { average: num(average) }),
  });
  return {
    currency: r.currency,
    deposits: flow(r.dn, r.ds, r.da),
    withdrawals: flow(r.wn, r.ws, r.wa),
    net_deposits: num(r.net),
    bets: flow(r.bn, r.bs),
    wins: flow(r.winn, r.wins),
    gross_gaming_revenue: num(r.ggr),
    bonus_granted: flow(r.gn, r.gs),
    first_activity: r.first?.toISOString() ?? null,
    last_activity: r.last?.toISOString() ?? null,
  };
}

/** Exact numbers as the digits they carry, so that comparisons are exact. */
function plain(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.digits;
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, plain(v)]));
  }
  return value;
}

async function summary(playerId: string, period: SummaryPeriod, now: Date) {
  return plain(await getPlayerSummary({ playerId, period, now }, db));
}

describe("getPlayerSummary", () => {
  it("is null for an unknown player", async () => {
    await expect(getPlayerSummary({ playerId: "NO-SUCH-PLAYER", period: "all" }, db)).rejects.toMatchObject(
      NOT_FOUND,
    );
  });

  it("counts exactly the completed transactions of the whole UTC days of the period, edges included", async () => {
    expect(await summary(EDGE_PLAYER, "30d", NOW)).toEqual({
      player_id: EDGE_PLAYER,
      currency: "EUR",
      period: "30d",
      from: "2026-06-01T00:00:00.000Z",
      to: "2026-07-01T00:00:00.000Z",
      deposits: { count: 2, sum: "300.12345678", average: "150.06172839" },
      withdrawals: { count: 1, sum: "0.00000001", average: "0.00000001" },
      net_deposits: "300.12345677",
      bets: { count: 2, sum: "42.5" },
      wins: { count: 1, sum: "80" },
      gross_gaming_revenue: "-37.5",
      bonus_granted: { count: 1, sum: "25" },
      first_activity: "2026-06-01T00:00:00.000Z",
      last_activity: "2026-06-30T23:59:59.999Z",
      // The 30 days before: 2026-05-02 … 2026-05-31, whose last millisecond holds the 1,000 deposit.
      previous: {
        ...EMPTY_PERIOD_FIGURES,
        from: "2026-05-02T00:00:00.000Z",
        to: "2026-06-01T00:00:00.000Z",
        deposits: { count: 1, sum: "1000", average: "1000" },
        net_deposits: "1000",
        // The cancelled deposit is activity (an attempt), not money.
        first_activity: "2026-05-20T12:00:00.000Z",
        last_activity: "2026-05-31T23:59:59.999Z",
      },
    });
    // One day later the first day has left the period and tomorrow's deposit has entered it.
    const next = await getPlayerSummary(
      {
        playerId: EDGE_PLAYER,
        period: "30d",
        now: new Date("2026-07-01T00:00:00.000Z"),
      },
      db,
    );
    expect(next?.deposits.count).toBe(2);
    expect(next?.deposits.sum.digits).toBe("207");
    expect(next?.first_activity).toBe("2026-06-10T12:00:00.000Z");
    expect(next?.last_activity).toBe("2026-07-01T00:00:00.000Z");
  });

  it("an empty period has zeros, null averages and no activity", async () => {
    // A year after the edge player's last transaction: this period and the one before are empty.
    expect(await summary(EDGE_PLAYER, "30d", new Date("2027-06-30T00:00:00Z"))).toMatchObject({
      ...EMPTY_PERIOD_FIGURES,
      previous: EMPTY_PERIOD_FIGURES,
    });
  });

  it("equals a plain SQL aggregate over the transactions for random players, periods and days", async () => {
    const rng = createRng(3030);
    const { rows } = await sql.query<{ player_id: string; lo: Date; hi: Date }>(
      `SELECT player_id, min(date) AS lo, max(date) AS hi FROM transactions
       WHERE player_id LIKE 'P0%' GROUP BY 1 ORDER BY count(*) DESC LIMIT 12`,
    );
    expect(rows.length).toBeGreaterThan(5);
    let busy = 0;
    for (let i = 0; i < 40; i++) {
      const p = rng.pick(rows);
      const period = rng.pick(SUMMARY_PERIODS);
      const at =
        p.lo.getTime() + Math.floor(rng.next() * (p.hi.getTime() - p.lo.getTime() + 40 * 86_400_000));
      // Also the first and last instants of a day: "today" is the UTC day of now.
      const day = Math.floor(at / 86_400_000) * 86_400_000;
      const now = new Date(rng.pick([at, day, day + 86_400_000 - 1]));
      const label = `${p.player_id} ${period} ${now.toISOString()}`;
      const expected = await reference(p.player_id, period, now);
      // The previous period of the same length is the same period asked that many days earlier.
      const days = DAYS[period];
      const { currency: _currency, ...before } =
        days === null
          ? { currency: null }
          : await reference(p.player_id, period, new Date(now.getTime() - days * 86_400_000));
      expect(await summary(p.player_id, period, now), label).toEqual({
        player_id: p.player_id,
        period,
        from: period === "all" ? null : expect.any(String),
        to: period === "all" ? null : expect.any(String),
        ...expected,
        previous: days === null ? null : { from: expect.any(String), to: expect.any(String), ...before },
      });
      if (expected.bets.count > 0 && expected.deposits.count > 0) busy++;
    }
    expect(busy, "most random periods should hold bets and deposits").toBeGreaterThan(15);
    for (const now of [NOW, new Date("2026-07-01T00:00:00.000Z"), new Date("2026-06-30T23:59:59.999Z")]) {
      for (const period of SUMMARY_PERIODS) {
        expect(await summary(EDGE_PLAYER, period, now)).toMatchObject(
          await reference(EDGE_PLAYER, period, now),
        );
      }
    }
  });
});
