import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { createTestPrisma } from "@/test/support/test-client";
import { WILDCARD_FIXTURE_NAME, WILDCARD_FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { searchPlayers } from "./search-players.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
afterAll(async () => {
  await db.$disconnect();
  await sql.end();
});

const page = { limit: 100, offset: 0 };
const search = (q: string | undefined, p = page) => searchPlayers({ q, ...p }, db);
const idsOf = async (q: string | undefined, p = page) => (await search(q, p)).players.map((x) => x.id);

async function playerCount(): Promise<number> {
  const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM players");
  return Number(rows[0]?.n);
}

describe("searchPlayers", () => {
  it("without q lists every player ordered by id, with the exact total", async () => {
    const total = await playerCount();
    const first = await search(undefined, { limit: 5, offset: 0 });
    expect(first.total).toBe(total);
    expect(first.players.map((p) => p.id)).toEqual(["P000001", "P000002", "P000003", "P000004", "P000005"]);
    const all: string[] = [];
    for (let offset = 0; offset < total; offset += 100)
      all.push(...(await idsOf(undefined, { limit: 100, offset })));
    expect(all).toHaveLength(total);
    expect([...all].sort()).toEqual(all);
    expect(new Set(all).size).toBe(total);
  });

  it("finds by id, name or email, case-insensitively", async () => {
    expect(await idsOf("P000042")).toEqual(["P000042"]);
    expect(await idsOf("p000042")).toEqual(["P000042"]);
    expect(await idsOf("ptest000")).toEqual(["PTEST0001", "PTEST0002", "PTEST0003"]);
    expect(await idsOf("FIXTURE PLAYER")).toEqual(["PTEST0001"]);
    expect(await idsOf("FIXTURE.PLAYER@EXAMPLE")).toEqual(["PTEST0001"]);
    const { rows } = await sql.query<{ id: string }>(
      "SELECT id FROM players WHERE name ILIKE '%smith%' OR email ILIKE '%smith%' OR id ILIKE '%smith%' ORDER BY id",
    );
    expect(rows.length).toBeGreaterThan(0);
    expect(await idsOf("SmItH")).toEqual(rows.map((r) => r.id));
  });

  it("each summary carries the fields that tell namesakes apart", async () => {
    const [player] = (await search("PTEST0001")).players;
    const { rows } = await sql.query<{ total: string }>(
      "SELECT total_balance::text AS total FROM players WHERE id = 'PTEST0001'",
    );
    expect(player).toEqual({
      id: "PTEST0001",
      name: "Fixture Player",
      email: "fixture.player@example.com",
      phone: "+44 7000000001",
      currency: "EUR",
      language: "English",
      registration_date: "2025-01-01T00:00:00.000Z",
      last_login: null,
      last_activity: expect.any(String),
      total_balance: expect.anything(),
      kyc_status: "approved",
      withdrawal_status: "allowed",
      blocked: false,
      vip_manager: null,
    });
    expect(Number(player?.total_balance)).toBe(Number(rows[0]?.total));
  });

  it("vipManager keeps only that manager's players, combined with q", async () => {
    const { rows } = await sql.query<{ id: string; name: string }>(
      "SELECT id, name FROM players WHERE vip_manager = 'Sarah Mitchell' ORDER BY id",
    );
    expect(rows.length).toBeGreaterThan(0);
    const mine = await searchPlayers({ ...page, vipManager: "Sarah Mitchell" }, db);
    expect(mine.total).toBe(rows.length);
    expect(mine.players.map((p) => p.id)).toEqual(rows.slice(0, 100).map((r) => r.id));
    expect(mine.players.every((p) => p.vip_manager === "Sarah Mitchell")).toBe(true);
    const first = rows[0];
    const narrowed = await searchPlayers({ q: first?.id, ...page, vipManager: "Sarah Mitchell" }, db);
    expect(narrowed.players.map((p) => p.id)).toEqual([first?.id]);
    // Another manager's player is not in the list even when q names it.
    expect((await searchPlayers({ q: "PTEST0001", ...page, vipManager: "Sarah Mitchell" }, db)).total).toBe(
      0,
    );
    expect((await searchPlayers({ ...page, vipManager: "Nobody Here" }, db)).total).toBe(0);
  });

  it("treats LIKE wildcards and backslashes literally", async () => {
    // Unescaped, % and _ would match every player.
    expect(await idsOf("%")).toEqual([WILDCARD_FIXTURE_PLAYER_ID]);
    expect(await idsOf("_")).toEqual([WILDCARD_FIXTURE_PLAYER_ID]);
    expect(await idsOf("Z_ë")).toEqual([]); // as a pattern it would match "Zoë"
    expect(await idsOf("Hara_100%")).toEqual([WILDCARD_FIXTURE_PLAYER_ID]);
    expect(await idsOf("100%%")).toEqual([]);
    expect(await idsOf("P%1")).toEqual([]);
    expect(await idsOf("\\")).toEqual([]);
    expect(await idsOf("\\%")).toEqual([]);
    expect(await idsOf("O'Hara")).toEqual([WILDCARD_FIXTURE_PLAYER_ID]);
  });

  it("matches unicode, case-insensitively", async () => {
    // Without accents: "zoë" is "zoe", and finds every Zoë, Zoé and Zoe.
    const zoes = await sql.query<{ id: string }>(
      "SELECT id FROM players WHERE name ILIKE ANY (ARRAY['%zoë%', '%zoé%', '%zoe%']) ORDER BY id",
    );
    expect(zoes.rows.map((r) => r.id)).toContain(WILDCARD_FIXTURE_PLAYER_ID);
    expect(await idsOf("zoë")).toEqual(zoes.rows.map((r) => r.id));
    expect(await idsOf("ZOË")).toEqual(zoes.rows.map((r) => r.id));
    expect(await idsOf(WILDCARD_FIXTURE_NAME)).toEqual([WILDCARD_FIXTURE_PLAYER_ID]);
    // Accents do not count either: "MÜLLER" finds every Müller, and any Muller.
    const { rows } = await sql.query<{ id: string; name: string }>(
      "SELECT id, name FROM players WHERE name ILIKE '%Müller%' OR name ILIKE '%Muller%' ORDER BY id",
    );
    expect(rows.some((r) => r.name.includes("Müller"))).toBe(true);
    expect(await idsOf("MÜLLER")).toEqual(rows.map((r) => r.id));
    expect(await idsOf("muller")).toEqual(rows.map((r) => r.id));
    expect(await idsOf("🎰")).toEqual([]);
  });

  it("pages with the true total; an offset past the end is empty", async () => {
    const total = (await search("P0000")).total;
    expect(total).toBe(99);
    const a = await search("P0000", { limit: 10, offset: 90 });
    expect(a.players.map((p) => p.id)).toEqual(Array.from({ length: 9 }, (_, i) => `P0000${91 + i}`));
    expect(a.total).toBe(99);
    expect(await search("P0000", { limit: 10, offset: 500 })).toEqual({
      players: [],
      total: 99,
      transactions: [],
    });
    expect(await search("no such player anywhere")).toEqual({ players: [], total: 0, transactions: [] });
  });
});
