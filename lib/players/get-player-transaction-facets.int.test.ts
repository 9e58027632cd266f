import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestPrisma } from "@/lib/db/test-client";
import { EMPTY_FIXTURE_PLAYER_ID } from "@/scripts/test-fixtures";
import { getPlayerTransactionFacets } from "./get-player-transaction-facets.ts";
import { listPlayerTransactions } from "./list-player-transactions.ts";

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
    expect(await getPlayerTransactionFacets("NO-SUCH-PLAYER", db)).toBeNull();
  });

  it("lists every event type, the player's names and creators with counts, and the date span", async () => {
    expect(await getPlayerTransactionFacets(PLAYER, db)).toEqual({
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
    const facets = await getPlayerTransactionFacets(EMPTY_FIXTURE_PLAYER_ID, db);
    expect(facets?.total).toBe(0);
    expect(facets?.event_names).toEqual([]);
    expect(facets?.created_by).toEqual([]);
    expect(facets?.event_types.every((t) => t.count === 0)).toBe(true);
    expect(facets?.first_date).toBeNull();
    expect(facets?.last_date).toBeNull();
  });

  it("counts agree with the filtered transaction list for the whale", async () => {
    const facets = await getPlayerTransactionFacets("P000007", db);
    const page = { limit: 1, offset: 0 };
    const all = await listPlayerTransactions("P000007", {}, page, db);
    expect(facets?.total).toBe(all?.total);
    for (const name of facets?.event_names ?? []) {
      const filtered = await listPlayerTransactions("P000007", { event_name: [name.value] }, page, db);
      expect(filtered?.total, name.value).toBe(name.count);
    }
    for (const creator of facets?.created_by ?? []) {
      const filtered = await listPlayerTransactions("P000007", { created_by: creator.value }, page, db);
      expect(filtered?.total, creator.value).toBe(creator.count);
    }
  });
});
