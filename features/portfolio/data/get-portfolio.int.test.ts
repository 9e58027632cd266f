import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  type Portfolio,
  type PortfolioFlagRules,
  type PortfolioPlayer,
  portfolioResponseSchema,
} from "@/features/portfolio/schema/portfolio";
import { parseWire } from "@/platform/client/wire-codec";
import { WIRE_DECIMALS } from "@/platform/client/wire-decimals";
import { stringifyJson } from "@/platform/http/json";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { createTestPrisma } from "@/test/support/test-client";
import {
  type GetPortfolioOptions,
  getPortfolio as getPortfolioAnswer,
  portfolioDays,
} from "./get-portfolio.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });

const MANAGER = "PF Manager Fixture";
const OTHER = "PF Other Manager";
/** The portfolio's day is 2026-06-30: last 30 days 06-01…06-30, previous 05-02…05-31, last 7 days 06-24…06-30,
 * the usual week's 12 weeks 04-01…06-23. */
const AS_OF = new Date("2026-06-30T12:00:00.000Z");
const RULES: PortfolioFlagRules = {
  churn_days: 30,
  big_withdrawal_amounts: [
    { currency: "EUR", amount: new ExactNumber("5000") },
    { currency: "GBP", amount: new ExactNumber("100") },
  ],
  big_withdrawal_percent: 50,
  deposit_spike_factor: 3,
};
/** The manager's book as the route asks for it (two parts: the default). */
const BOOK: GetPortfolioOptions = { manager: MANAGER, asOf: AS_OF, rules: RULES, parts: 2 };

// id, currency, total_balance, manager
const PLAYERS: [string, string, string, string][] = [
  ["PPF01", "EUR", "10", MANAGER], // churn: last activity 30 days before (in)
  ["PPF02", "EUR", "10", MANAGER], // 29 days: out
  ["PPF03", "EUR", "0", MANAGER], // never played: not churn
  ["PPF04", "EUR", "1000000", MANAGER], // withdrawal 5000.00000001 one ms inside the 7 days: big
  ["PPF05", "EUR", "1000000", MANAGER], // exactly 5000 at as_of: not above
  ["PPF06", "EUR", "1000000", MANAGER], // 6000 exactly 7 days before as_of: outside the window
  ["PPF07", "EUR", "100", MANAGER], // 100.00000001 of 200.00000001 held: above 50 %
  ["PPF08", "EUR", "100", MANAGER], // 100 of 200: exactly 50 %, not above
  ["PPF09", "EUR", "1000", MANAGER], // pending withdrawal 24 h + 1 ms old
  ["PPF10", "EUR", "1000", MANAGER], // pending exactly 24 h old, and a newer one: not older than 24 h
  ["PPF11", "EUR", "1000000", MANAGER], // deposits 300.00000001 in 7 days, usual week 100: spike
  ["PPF12", "EUR", "1000000", MANAGER], // exactly 300: not above
  ["PPF13", "EUR", "1000000", MANAGER], // deposits now, none in the 12 weeks before: no usual week
  ["PPF14", "EUR", "123456789012.12345678", MANAGER], // the figures and their changes
  ["PPF15", "GBP", "1000000", MANAGER], // GBP's own amount (100): 150 is big
  ["PPF16", "EUR", "100", MANAGER], // a failed withdrawal of 9000 and a cancelled one of 6000: not big
  ["PPF99", "EUR", "10", OTHER], // another manager's player
];

// player, id suffix, date, type, amount, completed (true), pending (false) or failed / cancelled
const TX: [string, string, string, string, string, boolean | "failed" | "cancelled"][] = [
  ["PPF01", "a", "2026-05-31T08:00:00.000Z", "bet", "-1", true],
  ["PPF02", "a", "2026-06-01T00:00:00.000Z", "bet", "-1", true],
  ["PPF04", "a", "2026-06-23T12:00:00.001Z", "withdrawal", "-5000.00000001", true],
  ["PPF05", "a", "2026-06-30T12:00:00.000Z", "withdrawal", "-5000", true],
  ["PPF06", "a", "2026-06-23T12:00:00.000Z", "withdrawal", "-6000", true],
  ["PPF07", "a", "2026-06-29T10:00:00.000Z", "withdrawal", "-100.00000001", true],
  ["PPF08", "a", "2026-06-29T10:00:00.000Z", "withdrawal", "-100", true],
  ["PPF09", "a", "2026-06-29T11:59:59.999Z", "withdrawal", "-20", false],
  ["PPF10", "a", "2026-06-29T12:00:00.000Z", "withdrawal", "-10.5", false],
  ["PPF10", "b", "2026-06-30T11:00:00.000Z", "withdrawal", "-0.25", false],
  ["PPF10", "c", "2026-06-27T09:00:00.000Z", "withdrawal", "-500", "failed"], // not pending: no flag, no sum
  ["PPF10", "d", "2026-06-26T09:00:00.000Z", "withdrawal", "-700", "cancelled"],
  ["PPF11", "a", "2026-03-31T12:00:00.000Z", "deposit", "1000000", true], // the day before the 12 weeks
  ["PPF11", "b", "2026-04-01T00:00:00.000Z", "deposit", "600", true], // their first instant
  ["PPF11", "c", "2026-06-23T23:59:59.999Z", "deposit", "600", true], // their last
  ["PPF11", "d", "2026-06-24T00:00:00.000Z", "deposit", "300.00000001", true], // the 7 days' first instant
  ["PPF12", "b", "2026-04-01T00:00:00.000Z", "deposit", "600", true],
  ["PPF12", "c", "2026-06-23T23:59:59.999Z", "deposit", "600", true],
  ["PPF12", "d", "2026-06-30T11:00:00.000Z", "deposit", "300", true],
  ["PPF13", "a", "2026-06-25T00:00:00.000Z", "deposit", "5000", true],
  ["PPF14", "a", "2026-05-01T23:59:59.999Z", "deposit", "999", true], // before the previous 30 days
  ["PPF14", "b", "2026-05-02T00:00:00.000Z", "deposit", "25", true], // previous 30 days' first instant
  ["PPF14", "c", "2026-05-31T23:59:59.999Z", "deposit", "50", true], // their last
  ["PPF14", "d", "2026-06-01T00:00:00.000Z", "deposit", "100.12345678", true], // last 30 days' first
  ["PPF14", "e", "2026-06-20T10:00:00.000Z", "deposit", "1000", false], // pending: activity, not money
  ["PPF14", "f", "2026-06-15T10:00:00.000Z", "withdrawal", "-30", true],
  ["PPF14", "g", "2026-05-15T10:00:00.000Z", "withdrawal", "-10", true],
  ["PPF14", "h", "2026-06-10T10:00:00.000Z", "bet", "-40", true],
  ["PPF14", "i", "2026-06-10T10:00:01.000Z", "win", "15.5", true],
  ["PPF14", "j", "2026-05-10T10:00:00.000Z", "bet", "-5", true],
  ["PPF14", "k", "2026-07-01T00:00:00.000Z", "deposit", "7", true], // after the portfolio's day: out
  // Money that never moved, in every window: no figure counts it.
  ["PPF14", "l", "2026-06-19T10:00:00.000Z", "deposit", "400", "failed"],
  ["PPF14", "m", "2026-05-19T10:00:00.000Z", "deposit", "40", "cancelled"],
  ["PPF14", "n", "2026-06-18T10:00:00.000Z", "withdrawal", "-60", "cancelled"],
  ["PPF14", "o", "2026-05-18T10:00:00.000Z", "withdrawal", "-6", "failed"],
  ["PPF14", "p", "2026-06-11T10:00:00.000Z", "bet", "-8", "failed"],
  ["PPF14", "q", "2026-06-11T10:00:01.000Z", "win", "9", "cancelled"],
  ["PPF14", "r", "2026-06-12T10:00:00.000Z", "bet", "-3", false],
  ["PPF15", "a", "2026-06-29T10:00:00.000Z", "withdrawal", "-150", true],
  ["PPF16", "a", "2026-06-29T10:00:00.000Z", "withdrawal", "-9000", "failed"],
  ["PPF16", "b", "2026-06-28T10:00:00.000Z", "withdrawal", "-6000", "cancelled"],
  ["PPF99", "a", "2026-06-29T10:00:00.000Z", "withdrawal", "-9000", false],
];

beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date, total_balance, vip_manager)
     SELECT r.id, 'Portfolio ' || r.id, r.currency, '2025-01-01', r.balance::numeric, r.manager
     FROM unnest($1::text[], $2::text[], $3::text[], $4::text[]) AS r(id, currency, balance, manager)`,
    [PLAYERS.map((p) => p[0]), PLAYERS.map((p) => p[1]), PLAYERS.map((p) => p[2]), PLAYERS.map((p) => p[3])],
  );
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT r.player || '-' || r.id, r.player, r.date, r.type::event_type, initcap(r.type), r.amount::numeric,
            p.currency, 'System', r.date, CASE WHEN r.status = 'completed' THEN r.date END,
            r.status::transaction_status
     FROM unnest($1::text[], $2::text[], $3::timestamptz[], $4::text[], $5::text[], $6::text[])
          AS r(player, id, date, type, amount, status)
     JOIN players p ON p.id = r.player`,
    [
      TX.map((t) => t[0]),
      TX.map((t) => t[1]),
      TX.map((t) => t[2]),
      TX.map((t) => t[3]),
      TX.map((t) => t[4]),
      TX.map((t) => (t[5] === true ? "completed" : t[5] === false ? "pending" : t[5])),
    ],
  );
});

afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = ANY($1)", [PLAYERS.map((p) => p[0])]);
  await db.$disconnect();
  await sql.end();
});

/** The body the statement wrote, read as a client with a lossless parser reads it, checked by the schema. */
async function getPortfolio(options: GetPortfolioOptions, client = db): Promise<Portfolio> {
  const { body } = await getPortfolioAnswer(options, client);
  const decimal = (digits: string) => new ExactNumber(digits);
  return portfolioResponseSchema.parse(parseWire(body.text, WIRE_DECIMALS.portfolio, decimal));
}

async function book(): Promise<Map<string, PortfolioPlayer>> {
  const portfolio = await getPortfolio(BOOK, db);
  return new Map(portfolio.players.map((p) => [p.id, p]));
}

const flagsOf = async (id: string) => (await book()).get(id)?.flags;

describe("getPortfolio", () => {
  it("lists exactly the manager's players, ordered by id", async () => {
    const portfolio = await getPortfolio(BOOK, db);
    expect(portfolio.players.map((p) => p.id)).toEqual(
      PLAYERS.filter((p) => p[3] === MANAGER).map((p) => p[0]),
    );
    expect(portfolio.as_of).toBe("2026-06-30T12:00:00.000Z");
    expect(portfolio.manager).toBe(MANAGER);
    expect((await getPortfolio({ ...BOOK, manager: "Nobody At All" }, db)).players).toEqual([]);
  });

  it("writes the body as stringifyJson writes the schema's value: same keys, order and digits", async () => {
    for (const rules of [RULES, { ...RULES, big_withdrawal_amounts: [] }]) {
      const { body, playerIds } = await getPortfolioAnswer({ ...BOOK, rules }, db);
      const decimal = (digits: string) => new ExactNumber(digits);
      const parsed = portfolioResponseSchema
        .strict()
        .parse(parseWire(body.text, WIRE_DECIMALS.portfolio, decimal));
      expect(body.text).toBe(stringifyJson(parsed));
      expect(playerIds).toEqual(parsed.players.map((p) => p.id));
    }
    const empty = await getPortfolioAnswer({ ...BOOK, manager: "Nobody At All" }, db);
    expect(JSON.parse(empty.body.text).players).toEqual([]);
    expect(empty.playerIds).toEqual([]);
  });

  it("gives the same body and ids however many parts compute the book", async () => {
    const answer = (parts: number) => getPortfolioAnswer({ ...BOOK, parts }, db);
    const whole = await answer(1);
    expect(whole.playerIds).toHaveLength(PLAYERS.filter((p) => p[3] === MANAGER).length);
    for (const parts of [2, 3, 7, 40]) {
      const split = await answer(parts);
      expect(split.parts).toBe(parts);
      expect(split.body.text).toBe(whole.body.text);
      expect(split.playerIds).toEqual(whole.playerIds);
    }
  });

  it("splits a book only while no other is being computed, and answers both the same", async () => {
    const [first, second] = await Promise.all([getPortfolioAnswer(BOOK, db), getPortfolioAnswer(BOOK, db)]);
    expect([first.parts, second.parts]).toEqual([2, 1]);
    expect(second.body.text).toBe(first.body.text);
    expect((await getPortfolioAnswer(BOOK, db)).parts).toBe(2);
  });

  it("computes the windows as whole UTC days", () => {
    expect(portfolioDays(AS_OF)).toEqual({
      today: "2026-06-30",
      last30: "2026-06-01",
      prev30: "2026-05-02",
      last7: "2026-06-24",
      week: "2026-06-23",
      usual: "2026-04-01",
    });
  });

  it("churn risk: no activity for churn_days days or more, after having had some", async () => {
    const players = await book();
    expect(players.get("PPF01")?.days_since_last_activity).toBe(30);
    expect(players.get("PPF01")?.flags).toContain("churn_risk");
    expect(players.get("PPF02")?.days_since_last_activity).toBe(29);
    expect(players.get("PPF02")?.flags).not.toContain("churn_risk");
    expect(players.get("PPF03")?.days_since_last_activity).toBeNull();
    expect(players.get("PPF03")?.flags).toEqual([]);
  });

  it("big withdrawal: above the currency's amount, or above the share of what was held, in the last 7 days", async () => {
    const players = await book();
    expect(players.get("PPF04")?.flags).toEqual(["big_withdrawal"]);
    expect(players.get("PPF04")?.largest_withdrawal_7d?.digits).toBe("5000.00000001");
    expect(players.get("PPF05")?.flags).toEqual([]);
    expect(players.get("PPF05")?.largest_withdrawal_7d?.digits).toBe("5000");
    expect(players.get("PPF06")?.flags).toEqual([]);
    expect(players.get("PPF06")?.largest_withdrawal_7d).toBeNull();
    expect(players.get("PPF07")?.flags).toEqual(["big_withdrawal"]);
    expect(players.get("PPF08")?.flags).toEqual([]);
    expect(players.get("PPF15")?.flags).toEqual(["big_withdrawal"]);
    // Failed and cancelled withdrawals moved no money: neither the largest nor a flag.
    expect(players.get("PPF16")?.largest_withdrawal_7d).toBeNull();
    expect(players.get("PPF16")?.flags).toEqual([]);
    expect(players.get("PPF10")?.largest_withdrawal_7d?.digits).toBe("10.5");
    // Without an amount for the currency only the share rule applies.
    const noAmounts = await getPortfolio({ ...BOOK, rules: { ...RULES, big_withdrawal_amounts: [] } }, db);
    expect(noAmounts.players.find((p) => p.id === "PPF04")?.flags).toEqual([]);
    expect(noAmounts.players.find((p) => p.id === "PPF07")?.flags).toEqual(["big_withdrawal"]);
  });

  it("pending withdrawal older than 24 h, with the pending count and exact amount", async () => {
    const players = await book();
    expect(players.get("PPF09")?.flags).toEqual(["pending_withdrawal_24h"]);
    expect(players.get("PPF10")?.flags).toEqual([]);
    expect(players.get("PPF10")?.pending_withdrawals).toEqual({
      count: 2,
      amount: new ExactNumber("10.75"),
      oldest: "2026-06-29T12:00:00.000Z",
    });
    expect(players.get("PPF02")?.pending_withdrawals).toEqual({
      count: 0,
      amount: new ExactNumber("0"),
      oldest: null,
    });
  });

  it("deposit spike: the last 7 days' deposits above factor × the usual week of the 12 weeks before", async () => {
    expect(await flagsOf("PPF11")).toEqual(["deposit_spike"]);
    expect(await flagsOf("PPF12")).toEqual([]);
    expect(await flagsOf("PPF13")).toEqual([]);
  });

  it("gives each figure exactly, against the previous 30 days", async () => {
    const p = (await book()).get("PPF14");
    const digits = (f: PortfolioPlayer["deposits"] | undefined) =>
      f && [f.current.digits, f.previous.digits, f.change.digits];
    expect(p?.total_balance.digits).toBe("123456789012.12345678");
    expect(digits(p?.deposits)).toEqual(["100.12345678", "75", "25.12345678"]);
    expect(digits(p?.withdrawals)).toEqual(["30", "10", "20"]);
    expect(digits(p?.net_deposits)).toEqual(["70.12345678", "65", "5.12345678"]);
    expect(digits(p?.ggr)).toEqual(["24.5", "5", "19.5"]);
    expect(p?.days_since_last_deposit).toBe(29);
    expect(p?.days_since_last_activity).toBe(10);
    expect(p?.flags).toEqual([]);
  });
});
