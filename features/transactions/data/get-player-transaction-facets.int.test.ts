import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type TransactionFilters,
  transactionFacetsQuerySchema,
} from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { createRng } from "@/prisma/demo-data/random";
import { filterSpans, randomFilters } from "@/test/support/random-filters";
import { referenceFilterSql } from "@/test/support/reference-filter-sql";
import { createTestPrisma } from "@/test/support/test-client";
import { EMPTY_FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { getPlayerTransactionFacets } from "./get-player-transaction-facets.ts";
import { listPlayerTransactions } from "./list-player-transactions.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
const PLAYER = "PUIFACET01";

const tx = (n: number, eventType: string, eventName: string, createdBy: string, date: string) => ({
  id: `${PLAYER}-${n}`,
  playerId: PLAYER,
  date: new Date(date),
  eventType: eventType as "bet",
  eventName,
  amount: "1",
  currency: "EUR",
  createdBy,
  createdAt: new Date(date),
  completedAt: new Date(date),
});

beforeAll(async () => {
  await db.player.create({
    data: { id: PLAYER, name: "Facet Fixture", currency: "EUR", registrationDate: new Date("2025-01-01") },
  });
  await db.transaction.createMany({
    data: [
      tx(1, "bet", "Casino Bet", "System", "2026-03-01T00:00:00.000Z"),
      tx(2, "bet", "Casino Bet", "System", "2026-03-02T00:00:00.000Z"),
      tx(3, "win", "Casino Win", "System", "2026-03-03T00:00:00.000Z"),
      tx(4, "adjustment", "Bonus Conversion", "Admin", "2025-05-05T05:05:05.005Z"),
      tx(5, "bonus", "Bonus Conversion", "System", "2026-04-04T04:04:04.004Z"),
      tx(6, "adjustment", "Goodwill, with comma", "VIP Manager", "2026-01-01T00:00:00.000Z"),
    ],
  });
});

afterAll(async () => {
  await db.player.delete({ where: { id: PLAYER } });
  await db.$disconnect();
});

describe("getPlayerTransactionFacets", () => {
  it("returns null for an unknown player", async () => {
    await expect(getPlayerTransactionFacets({ playerId: "NO-SUCH-PLAYER" }, db)).rejects.toMatchObject(
      NOT_FOUND,
    );
  });

  it("lists every event type, the player's names and creators with counts, and the date span", async () => {
    expect(await getPlayerTransactionFacets({ playerId: PLAYER }, db)).toEqual({
      player_id: PLAYER,
      total: 6,
      event_types: [
        { value: "deposit", count: 0 },
        { value: "withdrawal", count: 0 },
        { value: "bonus", count: 1 },
        { value: "bet", count: 2 },
        { value: "win", count: 1 },
        { value: "adjustment", count: 2 },
        { value: "refund", count: 0 },
      ],
      event_names: [
        { value: "Bonus Conversion", count: 2, event_types: ["bonus", "adjustment"] },
        { value: "Casino Bet", count: 2, event_types: ["bet"] },
        { value: "Casino Win", count: 1, event_types: ["win"] },
        { value: "Goodwill, with comma", count: 1, event_types: ["adjustment"] },
      ],
      created_by: [
        { value: "Admin", count: 1 },
        { value: "System", count: 4 },
        { value: "VIP Manager", count: 1 },
      ],
      first_date: "2025-05-05T05:05:05.005Z",
      last_date: "2026-04-04T04:04:04.004Z",
    });
  });

  it("gives zeros and null dates for a player without transactions", async () => {
    const facets = await getPlayerTransactionFacets({ playerId: EMPTY_FIXTURE_PLAYER_ID }, db);
    expect(facets?.total).toBe(0);
    expect(facets?.event_names).toEqual([]);
    expect(facets?.created_by).toEqual([]);
    expect(facets?.event_types.every((t) => t.count === 0)).toBe(true);
    expect(facets?.first_date).toBeNull();
    expect(facets?.last_date).toBeNull();
  });

  it("counts agree with the filtered transaction list for the whale", async () => {
    const facets = await getPlayerTransactionFacets({ playerId: "P000007" }, db);
    const page = { limit: 1, offset: 0 };
    const all = await listPlayerTransactions({ playerId: "P000007", filters: {}, ...page }, db);
    expect(facets?.total).toBe(all?.total);
    for (const name of facets?.event_names ?? []) {
      const filtered = await listPlayerTransactions(
        { playerId: "P000007", filters: { event_name: [name.value] }, ...page },
        db,
      );
      expect(filtered?.total, name.value).toBe(name.count);
    }
    for (const creator of facets?.created_by ?? []) {
      const filtered = await listPlayerTransactions(
        { playerId: "P000007", filters: { created_by: creator.value }, ...page },
        db,
      );
      expect(filtered?.total, creator.value).toBe(creator.count);
    }
  });
});

const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await sql.end();
});

/** Independent reference: a plain count(*) with every filter spelled out in SQL. */
async function sqlCount(playerId: string, f: TransactionFilters): Promise<number> {
  const { where, params } = referenceFilterSql(playerId, f);
  const { rows } = await sql.query<{ n: number }>(
    `SELECT count(*)::int AS n FROM transactions ${where}`,
    params,
  );
  return rows[0]?.n ?? -1;
}

describe("getPlayerTransactionFacets: faceted counts follow the other filters", () => {
  it("a facet's own selection does not narrow its counts; the other facets' do", async () => {
    const facets = await getPlayerTransactionFacets(
      { playerId: PLAYER, filters: { event_type: ["bet"] } },
      db,
    );
    expect(facets?.total).toBe(2);
    // Every type keeps its count: choosing bet does not hide how many wins there are.
    expect(facets?.event_types.find((t) => t.value === "win")?.count).toBe(1);
    // Names and creators count bets only; a name without bets stays listed with 0.
    expect(facets?.event_names.find((n) => n.value === "Casino Bet")?.count).toBe(2);
    expect(facets?.event_names.find((n) => n.value === "Casino Win")?.count).toBe(0);
    expect(facets?.created_by).toEqual([
      { value: "Admin", count: 0 },
      { value: "System", count: 2 },
      { value: "VIP Manager", count: 0 },
    ]);
  });

  it("every count equals a plain SQL count under the other filters, for randomized filters", async () => {
    const rng = createRng(5151);
    const players = ["P000007", "P000003", "P000012", PLAYER];
    const spans = await filterSpans(sql, players);
    let checked = 0;
    for (let i = 0; i < 25; i++) {
      const { playerId, params } = randomFilters(rng, spans, {
        event_type: 0.5,
        event_name: 0.4,
        created_by: 0.3,
        status: 0.3,
        transaction_id: 0.1,
        from_date: 0.5,
        to_date: 0.5,
      });
      const filters = parseQuery(transactionFacetsQuerySchema, params);
      const facets = await getPlayerTransactionFacets({ playerId, filters }, db);
      const label = `${playerId}?${params}`;
      expect(facets?.total, label).toBe(await sqlCount(playerId, filters));
      for (const t of facets?.event_types ?? []) {
        expect(t.count, `${label} type ${t.value}`).toBe(
          await sqlCount(playerId, { ...filters, event_type: [t.value] }),
        );
        checked++;
      }
      for (const n of facets?.event_names ?? []) {
        expect(n.count, `${label} name ${n.value}`).toBe(
          await sqlCount(playerId, { ...filters, event_name: [n.value] }),
        );
      }
      for (const c of facets?.created_by ?? []) {
        expect(c.count, `${label} creator ${c.value}`).toBe(
          await sqlCount(playerId, { ...filters, created_by: c.value }),
        );
      }
    }
    expect(checked).toBeGreaterThan(100);
  });
});
