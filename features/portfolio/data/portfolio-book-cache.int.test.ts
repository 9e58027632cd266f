import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import type { PortfolioFlagRules } from "@/features/portfolio/schema/portfolio";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { createTestPrisma } from "@/test/support/test-client";
import { type GetPortfolioOptions, getPortfolio } from "./get-portfolio.ts";
import { PortfolioBookCache } from "./portfolio-book-cache.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });

const MANAGER = "PKC Kept Book Manager";
const OTHER = "PKC Other Manager";
const AS_OF = new Date("2026-06-30T12:00:00.000Z");
const HOUR = 3_600_000;
const at = (ms: number) => new Date(AS_OF.getTime() + ms).toISOString();
const RULES: PortfolioFlagRules = {
  churn_days: 30,
  big_withdrawal_amounts: [{ currency: "EUR", amount: new ExactNumber("5000") }],
  big_withdrawal_percent: 50,
  deposit_spike_factor: 3,
};

// id, manager
const PLAYERS: [string, string][] = [
  ["PKC01", MANAGER], // leaves the book
  ["PKC02", MANAGER], // a deposit arrives
  ["PKC03", MANAGER], // a pending withdrawal completes
  ["PKC04", MANAGER], // a pending withdrawal turns 24 h old at AS_OF + 1 h
  ["PKC05", MANAGER], // a withdrawal leaves the 7 days at AS_OF + 1 h
  ["PKC06", MANAGER], // a withdrawal dated AS_OF + 30 min
  ["PKC07", MANAGER], // nothing happens
  ["PKC98", OTHER], // joins the book
];

// player, id suffix, date, type, amount, status
const TX: [string, string, string, string, string, string][] = [
  ["PKC01", "a", at(-3 * 24 * HOUR), "deposit", "100", "completed"],
  ["PKC02", "a", at(-40 * 24 * HOUR), "deposit", "50", "completed"],
  ["PKC03", "a", at(-2 * HOUR), "withdrawal", "-70", "pending"],
  ["PKC04", "a", at(-23 * HOUR), "withdrawal", "-20", "pending"],
  ["PKC05", "a", at(-7 * 24 * HOUR + HOUR), "withdrawal", "-9000", "completed"],
  ["PKC06", "a", at(HOUR / 2), "withdrawal", "-8000", "completed"],
  ["PKC07", "a", at(-5 * 24 * HOUR), "bet", "-3", "completed"],
  ["PKC98", "a", at(-24 * HOUR), "deposit", "10", "completed"],
];

async function insertTransactions(rows: typeof TX): Promise<void> {
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT r.player || '-' || r.id, r.player, r.date, r.type::event_type, initcap(r.type), r.amount::numeric,
            'EUR', 'System', r.date, CASE WHEN r.status = 'completed' THEN r.date END, r.status::transaction_status
     FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])
          AS r(player, id, date, type, amount, status)`,
    [0, 1, 2, 3, 4, 5].map((i) => rows.map((t) => t[i])),
  );
}

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date, total_balance, vip_manager)
     SELECT r.id, 'Kept ' || r.id, 'EUR', '2025-01-01', 1000, r.manager
     FROM unnest($1::text[], $2::text[]) AS r(id, manager)`,
    [PLAYERS.map((p) => p[0]), PLAYERS.map((p) => p[1])],
  );
  await insertTransactions(TX);
});

afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = ANY($1)", [PLAYERS.map((p) => p[0])]);
  await db.$disconnect();
  await sql.end();
});

const BOOK: GetPortfolioOptions = { manager: MANAGER, asOf: AS_OF, rules: RULES, parts: 2 };

/**
 * Reads the book through `cache` and computed whole, and checks they are the same text: the kept rows may never
 * answer anything but what the database holds now. Returns how many players the cached read computed.
 */
async function readBoth(cache: PortfolioBookCache, options: Partial<GetPortfolioOptions> = {}) {
  const kept = await getPortfolio({ ...BOOK, ...options, cache }, db);
  const whole = await getPortfolio({ ...BOOK, ...options }, db);
  expect(kept.body.text).toBe(whole.body.text);
  expect(kept.playerIds).toEqual(whole.playerIds);
  return {
    computed: kept.computed,
    ids: kept.playerIds,
    players: JSON.parse(kept.body.text).players as BodyPlayer[],
  };
}

/** One player of a parsed body (plain JSON: the tests compare small exact numbers). */
type BodyPlayer = { id: string; flags: string[]; deposits: unknown; pending_withdrawals: unknown };
const player = (players: BodyPlayer[], id: string): BodyPlayer | undefined =>
  players.find((p) => p.id === id);

describe("getPortfolio with kept books", () => {
  it("computes each player once, then only those the change feed or the clock names", async () => {
    const cache = new PortfolioBookCache(4);
    expect((await readBoth(cache)).computed).toBe(7);
    expect((await readBoth(cache)).computed).toBe(0);

    // A new transaction: only its player.
    await insertTransactions([["PKC02", "b", at(-HOUR), "deposit", "25.5", "completed"]]);
    const deposit = await readBoth(cache);
    expect(deposit.computed).toBe(1);
    expect(player(deposit.players, "PKC02")?.deposits).toMatchObject({ current: 25.5 });

    // A status change (pending → completed) of a transaction.
    await sql.query("UPDATE transactions SET status = 'completed', completed_at = date WHERE id = 'PKC03-a'");
    const completed = await readBoth(cache);
    expect(completed.computed).toBe(1);
    expect(player(completed.players, "PKC03")?.pending_withdrawals).toMatchObject({ count: 0 });

    // A deleted transaction.
    await sql.query("DELETE FROM transactions WHERE id = 'PKC07-a'");
    expect((await readBoth(cache)).computed).toBe(1);

    // A player joining the book is computed; one leaving is dropped without computing anyone.
    await sql.query(`UPDATE players SET vip_manager = $1 WHERE id = 'PKC98'`, [MANAGER]);
    const joined = await readBoth(cache);
    expect(joined.computed).toBe(1);
    expect(joined.ids).toContain("PKC98");
    await sql.query(`UPDATE players SET vip_manager = $1 WHERE id = 'PKC01'`, [OTHER]);
    const left = await readBoth(cache);
    expect(left.computed).toBe(0);
    expect(left.ids).not.toContain("PKC01");

    // A balance (the players row) moving.
    await sql.query("UPDATE players SET total_balance = 1234.5 WHERE id = 'PKC05'");
    expect((await readBoth(cache)).computed).toBe(1);
  });

  it("computes a player again when the clock reaches an instant its row depends on", async () => {
    const cache = new PortfolioBookCache(4);
    const first = await readBoth(cache);
    expect(first.computed).toBe(first.ids.length);
    expect(player(first.players, "PKC04")?.flags).not.toContain("pending_withdrawal_24h");
    expect(player(first.players, "PKC05")?.flags).toContain("big_withdrawal");

    // Ten minutes later nothing has crossed an instant.
    expect((await readBoth(cache, { asOf: new Date(AS_OF.getTime() + 10 * 60_000) })).computed).toBe(0);

    // Two hours later: PKC04's pending withdrawal is older than 24 h, PKC05's withdrawal has left the 7 days and
    // PKC06's (dated AS_OF + 30 min) has entered them. Nobody else.
    const later = await readBoth(cache, { asOf: new Date(AS_OF.getTime() + 2 * HOUR) });
    expect(later.computed).toBe(3);
    expect(player(later.players, "PKC04")?.flags).toContain("pending_withdrawal_24h");
    expect(player(later.players, "PKC05")?.flags).not.toContain("big_withdrawal");
    expect(player(later.players, "PKC06")?.flags).toContain("big_withdrawal");

    // An earlier instant, the next UTC day and other rules: the whole book.
    const all = later.ids.length;
    expect((await readBoth(cache, { asOf: AS_OF })).computed).toBe(all);
    expect((await readBoth(cache, { asOf: new Date("2026-07-01T00:00:00.000Z") })).computed).toBe(all);
    expect((await readBoth(cache, { asOf: new Date("2026-07-01T00:00:00.000Z") })).computed).toBe(0);
    const rules = { ...RULES, churn_days: 3 };
    expect((await readBoth(cache, { asOf: new Date("2026-07-01T00:00:00.000Z"), rules })).computed).toBe(all);
  });
});
