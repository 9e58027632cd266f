import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestPrisma } from "@/test/support/test-client";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { maskSummaryContact } from "./mask-contact.ts";
import { type SearchPlayersOptions, searchPlayers } from "./search-players.ts";

/*
 * The support lookup (issue 23): names without accents or case, exact contact matches for callers who see
 * contact data masked, namesakes told apart, transaction ids. Two namesakes of its own, removed afterwards.
 */
const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });

const ZOE_A = "PH23S0001";
const ZOE_B = "PH23S0002";

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, email, phone, currency, language, registration_date, last_login, kyc_status)
     VALUES ($1, 'Zoé Côté', 'Zoe.Cote@Example.org', '+1 514 555 0142', 'CAD', 'French', '2024-02-01T00:00:00Z', '2026-01-05T10:00:00Z', 'approved'),
            ($2, 'Zoé Côté', 'zcote@example.net', '+33 6 12 34 56 78', 'EUR', 'French', '2025-09-15T00:00:00Z', NULL, 'pending')`,
    [ZOE_A, ZOE_B],
  );
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at, completed_at)
     VALUES ('TxH23s-Case-01', $1, '2026-02-03T04:05:06Z', 'deposit', 'Card Deposit', 25, 'EUR', 'System', '2026-02-03T04:05:06Z', '2026-02-03T04:05:06Z')`,
    [ZOE_B],
  );
});

afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = ANY($1)", [[ZOE_A, ZOE_B]]);
  await db.$disconnect();
  await sql.end();
});

const page = { limit: 100, offset: 0 };
const masked = (q: string, more: Partial<SearchPlayersOptions> = {}) =>
  searchPlayers({ q, ...page, contact: "exact", ...more }, db);
const unmasked = (q: string) => searchPlayers({ q, ...page, contact: "partial" }, db);
const ids = (r: { players: { id: string }[] }) => r.players.map((p) => p.id);

describe("names without accents or case", () => {
  it("finds Zoé Côté as zoe cote, ZOE COTE, cote zoe and côté", async () => {
    for (const q of ["zoe cote", "ZOE COTE", "cote zoe", "côté", "Zoé Côté", "  zoe   cote "]) {
      expect(ids(await masked(q)), q).toEqual(expect.arrayContaining([ZOE_A, ZOE_B]));
    }
  });

  it("every word must be in the name: a word of someone else finds nobody of these", async () => {
    expect(ids(await masked("zoe tremblayzz"))).toEqual([]);
    expect(ids(await masked("zoe cote")).every((id) => id !== FIXTURE_PLAYER_ID)).toBe(true);
  });

  it("agrees with a folded scan of the whole table (the index answers what a scan would)", async () => {
    const { rows } = await sql.query<{ id: string }>(
      "SELECT id FROM players WHERE fold_search_text(name) LIKE '%cote%' ORDER BY id",
    );
    const found = await masked("COTE");
    expect(found.total).toBe(rows.length);
    expect(ids(found)).toEqual(rows.slice(0, 100).map((r) => r.id));
  });
});

describe("namesakes told apart", () => {
  it("each result has its registration, currency, last activity and the phone's last two digits", async () => {
    const found = (await masked("zoé côté")).players.filter((p) => p.id === ZOE_A || p.id === ZOE_B);
    const [a, b] = found.map(maskSummaryContact);
    expect(a).toMatchObject({
      id: ZOE_A,
      currency: "CAD",
      registration_date: "2024-02-01T00:00:00.000Z",
      last_activity: "2026-01-05T10:00:00.000Z",
      phone: "+1 ••• ••• 42",
      email: "Z***@Example.org",
    });
    // No login, one transaction: its date is the last activity.
    expect(b).toMatchObject({
      id: ZOE_B,
      currency: "EUR",
      last_activity: "2026-02-03T04:05:06.000Z",
      phone: "+33 ••• ••• 78",
    });
  });
});

describe("contact data, masked callers: exact matches only", () => {
  it("an e-mail address in full, any case, finds its player", async () => {
    expect(ids(await masked("zoe.cote@example.org"))).toEqual([ZOE_A]);
    expect(ids(await masked("ZOE.COTE@EXAMPLE.ORG"))).toEqual([ZOE_A]);
    expect(ids(await masked("  zcote@example.net "))).toEqual([ZOE_B]);
  });

  it("a part of an address, a near miss or a pattern reveals nothing", async () => {
    for (const q of [
      "zoe.cote@example",
      "zoe.cote@",
      "oe.cote@example.org",
      "zoe.cote@example.org.",
      "zoe.cote@example.or",
      "%@example.org",
      "_oe.cote@example.org",
      "example.org",
      "Example",
      "zcote",
    ]) {
      const r = await masked(q);
      expect(
        ids(r).filter((id) => id === ZOE_A || id === ZOE_B),
        q,
      ).toEqual([]);
    }
    // With the scope, the same parts match (the caller may read the addresses anyway).
    expect(ids(await unmasked("zoe.cote@example"))).toEqual([ZOE_A]);
    expect(ids(await unmasked("zcote"))).toEqual([ZOE_B]);
  });

  it("a phone number in full, written any way, finds its player", async () => {
    for (const q of [
      "+1 514 555 0142",
      "+15145550142",
      "15145550142",
      "001 514-555-0142",
      "(1) 514.555.0142",
    ]) {
      expect(ids(await masked(q)), q).toEqual([ZOE_A]);
    }
    expect(ids(await masked("+33 612345678"))).toEqual([ZOE_B]);
    expect(ids(await unmasked("+33 6 12 34 56 78"))).toEqual([ZOE_B]);
  });

  it("a part of a number, the last digits or one digit more reveals nothing", async () => {
    for (const q of [
      "514 555 0142",
      "5550142",
      "0142",
      "+1 514 555 014",
      "+1 514 555 01420",
      "+1 514 555 0143",
    ]) {
      const r = await masked(q);
      expect(
        ids(r).filter((id) => id === ZOE_A),
        q,
      ).toEqual([]);
    }
  });

  it("the fixture player's address and number: the same rule on the shared data", async () => {
    expect(ids(await masked("FIXTURE.PLAYER@EXAMPLE.COM"))).toEqual([FIXTURE_PLAYER_ID]);
    expect(ids(await masked("fixture.player@example"))).toEqual([]);
    expect(ids(await masked("+44 7000000001"))).toEqual([FIXTURE_PLAYER_ID]);
    expect(ids(await masked("+44 700000000"))).toEqual([]);
  });
});

describe("transaction ids", () => {
  it("an id in any case finds the transaction and its player, across all players", async () => {
    const expected = {
      id: "TxH23s-Case-01",
      player_id: ZOE_B,
      player_name: "Zoé Côté",
      date: "2026-02-03T04:05:06.000Z",
      event_type: "deposit",
    };
    expect((await masked("txh23s-case-01")).transactions).toEqual([expected]);
    expect((await masked("TXH23S-CASE-01")).transactions).toEqual([expected]);
    expect((await unmasked(" TxH23s-Case-01 ")).transactions).toEqual([expected]);
  });

  it("a part of an id, or an id of another manager's player with vipManager, finds no transaction", async () => {
    expect((await masked("txh23s-case-0")).transactions).toEqual([]);
    expect((await masked("xh23s-case-01")).transactions).toEqual([]);
    expect((await masked("txh23s-case-01", { vipManager: "Sarah Mitchell" })).transactions).toEqual([]);
    expect((await masked("zoe cote")).transactions).toEqual([]);
  });

  it("the fixture's transactions too", async () => {
    const r = await masked("fx0401");
    expect(r.transactions.map((t) => [t.id, t.player_id])).toEqual([["FX0401", FIXTURE_PLAYER_ID]]);
  });
});
