import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { transactionFacetsQuerySchema } from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { createRng } from "@/prisma/demo-data/random";
import { filterSpans, randomFilters } from "@/test/support/random-filters";
import { referenceFilterSql } from "@/test/support/reference-filter-sql";
import { createTestPrisma } from "@/test/support/test-client";
import { sumPlayerTransactions } from "./sum-player-transactions.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await db.$disconnect();
  await sql.end();
});

const PLAYERS = ["P000003", "P000007", "P000012", "P000042", "P000001", "P000100"];

const STATUSES = ["completed", "pending", "failed", "cancelled"] as const;

/**
 * Independent reference: the filters in plain SQL, per currency the count of every match, sum(amount) of the
 * completed ones, and each status's count and sum(amount).
 */
async function reference(playerId: string, qs: string) {
  const filters = parseQuery(transactionFacetsQuerySchema, new URLSearchParams(qs));
  const { where, params } = referenceFilterSql(playerId, filters);
  const per = (status: string) =>
    `count(*) FILTER (WHERE status = '${status}')::int AS ${status}_n,
     COALESCE(trim_scale(sum(amount) FILTER (WHERE status = '${status}')), 0)::text AS ${status}_sum`;
  const { rows } = await sql.query<Record<string, string | number>>(
    `SELECT currency, count(*)::int AS n, ${STATUSES.map(per).join(", ")}
     FROM transactions ${where} GROUP BY currency ORDER BY currency`,
    params,
  );
  const zero = (v: string | number | undefined) => String(v).replace(/^-0$/, "0");
  return {
    count: rows.reduce((a, r) => a + Number(r.n), 0),
    by_currency: rows.map((r) => ({
      currency: r.currency,
      count: r.n,
      sum: zero(r.completed_sum),
      by_status: Object.fromEntries(
        STATUSES.map((s) => [s, { count: r[`${s}_n`], sum: zero(r[`${s}_sum`]) }]),
      ),
    })),
  };
}

async function totals(playerId: string, qs: string) {
  const filters = parseQuery(transactionFacetsQuerySchema, new URLSearchParams(qs));
  const t = await sumPlayerTransactions({ playerId, filters }, db);
  return {
    count: t.count,
    by_currency: t.by_currency.map((c) => ({
      ...c,
      sum: c.sum.digits,
      // Read defensively so that a missing by_status fails as a difference, showing the sum beside it.
      by_status:
        c.by_status &&
        Object.fromEntries(
          STATUSES.map((s) => [s, { count: c.by_status[s].count, sum: c.by_status[s].sum.digits }]),
        ),
    })),
  };
}

/** The player: deposits of 100 and 50 completed, 200 failed, 30 cancelled, 70 pending (SEK). */
const UNMOVED = "PUITOTALS1";

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Totals Fixture', 'SEK', '2025-01-01')`,
    [UNMOVED],
  );
  // id, date, type, amount, status; a completed bet too, so a filter on two types sums signs.
  const rows: [string, string, string, string, string][] = [
    ["a", "2026-03-01T10:00:00.000Z", "deposit", "100", "completed"],
    ["b", "2026-03-02T10:00:00.000Z", "deposit", "50", "completed"],
    ["c", "2026-03-03T10:00:00.000Z", "deposit", "200", "failed"],
    ["d", "2026-03-04T10:00:00.000Z", "deposit", "30", "cancelled"],
    ["e", "2026-03-05T10:00:00.000Z", "deposit", "70", "pending"],
    ["f", "2026-03-06T10:00:00.000Z", "bet", "-20", "completed"],
    ["g", "2026-03-07T10:00:00.000Z", "bet", "-5", "failed"],
  ];
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT $1 || '-' || r.id, $1, r.date, r.type::event_type, initcap(r.type), r.amount::numeric, 'SEK', 'System',
            r.date, CASE WHEN r.status = 'completed' THEN r.date END, r.status::transaction_status
     FROM unnest($2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])
          AS r(id, date, type, amount, status)`,
    [UNMOVED, ...[0, 1, 2, 3, 4].map((i) => rows.map((r) => r[i]))],
  );
});
afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = $1", [UNMOVED]);
});

describe("sumPlayerTransactions: count and exact signed sum per currency under the list's filters", () => {
  it("equals plain SQL for the drill-down filters (daily stats plus partial days) at day edges", async () => {
    const cases = [
      "status=completed&event_type=deposit",
      "status=completed&event_type=withdrawal",
      "status=completed&event_type=deposit,withdrawal",
      "status=completed&event_type=bet,win",
      // Whole days and partial days at both ends (instants inside a day, the last millisecond of one).
      "status=completed&event_type=deposit&from_date=2025-06-01&to_date=2025-11-30",
      "status=completed&event_type=bet&from_date=2025-06-01T12:00:00Z&to_date=2025-11-30T23:59:59.999Z",
      "status=completed&event_type=win&from_date=2025-06-01T00:00:00.001Z&to_date=2025-06-02T00:00:00Z",
      "status=completed&event_type=bet&from_date=2025-06-01T10:00:00Z&to_date=2025-06-01T11:00:00Z",
    ];
    for (const player of ["P000007", "P000012"]) {
      for (const qs of cases) {
        const expected = await reference(player, qs);
        expect(await totals(player, qs), `${player}?${qs}`).toEqual(expected);
      }
    }
    expect((await totals("P000007", cases[3] ?? "")).count).toBeGreaterThan(100);
  });

  it("equals plain SQL for random filters (row by row where the stats cannot say)", async () => {
    const rng = createRng(4242);
    const spans = await filterSpans(sql, PLAYERS);
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      const { playerId, params } = randomFilters(rng, spans, {
        event_type: 0.6,
        event_name: 0.2,
        created_by: 0.2,
        status: 0.7,
        transaction_id: 0.05,
        from_date: 0.5,
        to_date: 0.5,
      });
      const qs = params.toString();
      const expected = await reference(playerId, qs);
      expect(await totals(playerId, qs), `${playerId}?${qs}`).toEqual(expected);
      if (expected.count > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(20);
  });

  it("sums completed money only; by_status says what each status attempted (the issue's player)", async () => {
    const status = (
      completed: [number, string],
      pending: [number, string],
      failed: [number, string],
      cancelled: [number, string],
    ) => ({
      completed: { count: completed[0], sum: completed[1] },
      pending: { count: pending[0], sum: pending[1] },
      failed: { count: failed[0], sum: failed[1] },
      cancelled: { count: cancelled[0], sum: cancelled[1] },
    });
    expect(await totals(UNMOVED, "event_type=deposit")).toEqual({
      count: 5,
      by_currency: [
        {
          currency: "SEK",
          count: 5,
          sum: "150",
          by_status: status([2, "150"], [1, "70"], [1, "200"], [1, "30"]),
        },
      ],
    });
    // A filter on failed still says what was attempted, and that none of it moved.
    expect(await totals(UNMOVED, "event_type=deposit&status=failed")).toEqual({
      count: 1,
      by_currency: [
        { currency: "SEK", count: 1, sum: "0", by_status: status([0, "0"], [0, "0"], [1, "200"], [0, "0"]) },
      ],
    });
    // Completed deposits over whole days: from the daily stats, the same figure.
    expect(
      await totals(UNMOVED, "event_type=deposit&status=completed&from_date=2026-03-01&to_date=2026-03-31"),
    ).toEqual({
      count: 2,
      by_currency: [
        {
          currency: "SEK",
          count: 2,
          sum: "150",
          by_status: status([2, "150"], [0, "0"], [0, "0"], [0, "0"]),
        },
      ],
    });
    // Every type: in minus out of the completed ones (100 + 50 − 20).
    const all = await totals(UNMOVED, "");
    expect(all.count).toBe(7);
    expect(all.by_currency[0]?.sum).toBe("130");
    expect(all.by_currency[0]?.by_status.failed).toEqual({ count: 2, sum: "195" });
    expect(await totals(UNMOVED, "")).toEqual(await reference(UNMOVED, ""));
  });

  it("an empty match is zero with no currency; an unknown player is not found", async () => {
    expect(await totals("P000007", "transaction_id=NO-SUCH-ID")).toEqual({ count: 0, by_currency: [] });
    await expect(
      sumPlayerTransactions({ playerId: "NO-SUCH-PLAYER", filters: {} }, db),
    ).rejects.toMatchObject({ name: "AppError", code: "NOT_FOUND" });
  });
});
