import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { parseQuery } from "@/lib/http/query";
import { transactionFacetsQuerySchema } from "@/lib/schemas/transaction";
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

/** Independent reference: the filters in plain SQL, count and sum(amount) per currency. */
async function reference(playerId: string, qs: string) {
  const filters = parseQuery(transactionFacetsQuerySchema, new URLSearchParams(qs));
  const { where, params } = referenceFilterSql(playerId, filters);
  const { rows } = await sql.query<{ currency: string; n: number; total: string }>(
    `SELECT currency, count(*)::int AS n, trim_scale(sum(amount))::text AS total
     FROM transactions ${where} GROUP BY currency ORDER BY currency`,
    params,
  );
  return {
    count: rows.reduce((a, r) => a + r.n, 0),
    by_currency: rows.map((r) => ({ currency: r.currency, count: r.n, sum: r.total.replace(/^-0$/, "0") })),
  };
}

async function totals(playerId: string, qs: string) {
  const filters = parseQuery(transactionFacetsQuerySchema, new URLSearchParams(qs));
  const t = await sumPlayerTransactions({ playerId, filters }, db);
  return { count: t.count, by_currency: t.by_currency.map((c) => ({ ...c, sum: c.sum.digits })) };
}

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

  it("an empty match is zero with no currency; an unknown player is not found", async () => {
    expect(await totals("P000007", "transaction_id=NO-SUCH-ID")).toEqual({ count: 0, by_currency: [] });
    await expect(
      sumPlayerTransactions({ playerId: "NO-SUCH-PLAYER", filters: {} }, db),
    ).rejects.toMatchObject({ name: "AppError", code: "NOT_FOUND" });
  });
});
