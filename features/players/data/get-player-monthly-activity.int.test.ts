import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ExactNumber } from "@/platform/schemas/exact-number";
import { createTestPrisma } from "@/test/support/test-client";
import { getPlayerMonthlyActivity } from "./get-player-monthly-activity.ts";
import { getPlayerProfile } from "./get-player-profile.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
const PLAYER = "PUIACT0001";

/** Exact decimal sum of decimal strings (8 fractional digits at most, as stored). */
function sum(values: string[]): string {
  const scaled = values.reduce((acc, v) => {
    const [whole = "0", frac = ""] = v.replace("-", "").split(".");
    const n = BigInt(whole) * 100_000_000n + BigInt(frac.padEnd(8, "0"));
    return acc + (v.startsWith("-") ? -n : n);
  }, 0n);
  const abs = scaled < 0n ? -scaled : scaled;
  const frac = (abs % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "");
  return `${scaled < 0n ? "-" : ""}${abs / 100_000_000n}${frac ? `.${frac}` : ""}`;
}

type Flow = "deposits" | "withdrawals" | "bets" | "wins";

/** One expected month: each flow given as [count, amount] (the others none), with its totals. */
function month(
  name: string,
  flows: Partial<Record<Flow, [number, string]>>,
  totals: { net_deposits: string; gross_gaming_revenue: string; partial?: boolean },
) {
  const flow = (f: Flow) => ({ count: flows[f]?.[0] ?? 0, amount: flows[f]?.[1] ?? "0" });
  const { partial = false, ...sums } = totals;
  return {
    month: name,
    deposits: flow("deposits"),
    withdrawals: flow("withdrawals"),
    bets: flow("bets"),
    wins: flow("wins"),
    ...sums,
    partial,
  };
}

/** The value with every ExactNumber replaced by its digits, for readable deep equality. */
function digitsOf(value: unknown): unknown {
  if (value instanceof ExactNumber) return value.digits;
  if (Array.isArray(value)) return value.map(digitsOf);
  if (value && typeof value === "object") {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, digitsOf(v)]));
  }
  return value;
}

const tx = (
  id: string,
  date: string,
  eventType: string,
  amount: string,
  status: "completed" | "pending" | "failed" | "cancelled" = "completed",
) => ({
  id: `${PLAYER}-${id}`,
  playerId: PLAYER,
  date: new Date(date),
  eventType: eventType as "deposit",
  eventName: `${eventType} event`,
  amount,
  currency: "EUR",
  createdBy: "System",
  createdAt: new Date(date),
  completedAt: status === "completed" ? new Date(date) : null,
  status,
});

beforeAll(async () => {
  await db.player.create({
    data: { id: PLAYER, name: "Activity Fixture", currency: "EUR", registrationDate: new Date("2025-01-01") },
  });
  await db.transaction.createMany({
    data: [
      tx("before", "2025-12-31T23:59:59.999Z", "deposit", "1000"), // just outside the window
      tx("d1", "2026-01-01T00:00:00.000Z", "deposit", "10.1"),
      tx("d2", "2026-01-15T10:00:00.000Z", "deposit", "20.205"),
      tx("d3-pending", "2026-01-20T10:00:00.000Z", "deposit", "500", "pending"),
      // Money that never moved: in no month's figures.
      tx("d4-failed", "2026-01-21T10:00:00.000Z", "deposit", "400", "failed"),
      tx("d5-cancelled", "2026-01-22T10:00:00.000Z", "deposit", "30", "cancelled"),
      tx("w2-failed", "2026-02-04T10:00:00.000Z", "withdrawal", "-60", "failed"),
      tx("w3-pending", "2026-02-05T10:00:00.000Z", "withdrawal", "-70", "pending"),
      tx("b3-cancelled", "2026-02-11T10:00:00.000Z", "bet", "-8", "cancelled"),
      tx("win-failed", "2026-03-02T10:00:00.000Z", "win", "9", "failed"),
      tx("w1", "2026-02-03T10:00:00.000Z", "withdrawal", "-5.5"),
      tx("b1", "2026-02-28T23:59:59.999Z", "bet", "-1.25"),
      tx("b2", "2026-02-10T00:00:00.000Z", "bet", "-0.00000001"),
      tx("bonus", "2026-02-10T00:00:00.000Z", "bonus", "50"),
      tx("win", "2026-03-01T00:00:00.000Z", "win", "3"),
      tx("after", "2026-04-01T00:00:00.000Z", "win", "7"), // just outside the window
    ],
  });
});

afterAll(async () => {
  await db.player.delete({ where: { id: PLAYER } });
  await db.$disconnect();
});

describe("getPlayerMonthlyActivity", () => {
  it("returns null for an unknown player", async () => {
    await expect(
      getPlayerMonthlyActivity({ playerId: "NO-SUCH-PLAYER", months: 12 }, db),
    ).rejects.toMatchObject(NOT_FOUND);
  });

  it("sums completed flows per UTC month, months without activity as zeros", async () => {
    const result = await getPlayerMonthlyActivity(
      { playerId: PLAYER, months: 3, toMonth: "2026-03", now: new Date("2026-03-31T23:59:59.999Z") },
      db,
    );
    expect(result).not.toBeNull();
    expect(digitsOf(result)).toEqual({
      player_id: PLAYER,
      currency: "EUR",
      from: "2026-01-01T00:00:00.000Z",
      to: "2026-04-01T00:00:00.000Z",
      months: [
        month("2026-01", { deposits: [2, "30.305"] }, { net_deposits: "30.305", gross_gaming_revenue: "0" }),
        month(
          "2026-02",
          { withdrawals: [1, "5.5"], bets: [2, "1.25000001"] },
          { net_deposits: "-5.5", gross_gaming_revenue: "1.25000001" },
        ),
        // The player won more than they bet; the month of `now` is to date.
        month(
          "2026-03",
          { wins: [1, "3"] },
          { net_deposits: "0", gross_gaming_revenue: "-3", partial: true },
        ),
      ],
    });
  });

  it("defaults to the months up to the current one", async () => {
    const result = await getPlayerMonthlyActivity(
      { playerId: PLAYER, months: 12, now: new Date("2026-11-20T12:00:00Z") },
      db,
    );
    expect(result?.months.map((m) => m.month)).toEqual([
      "2025-12",
      "2026-01",
      "2026-02",
      "2026-03",
      "2026-04",
      "2026-05",
      "2026-06",
      "2026-07",
      "2026-08",
      "2026-09",
      "2026-10",
      "2026-11",
    ]);
    expect(result?.months[0]?.deposits.count).toBe(1); // the 2025-12-31 deposit
    // Only the month of `now` is partial.
    expect(result?.months.filter((m) => m.partial).map((m) => m.month)).toEqual(["2026-11"]);
  });

  it("agrees with the whale's lifetime KPIs over a window covering the whole history", async () => {
    const first = await db.transaction.findFirst({
      where: { playerId: "P000007" },
      orderBy: { date: "asc" },
    });
    // Every month from the first transaction's to 2026-11.
    const start = first?.date ?? new Date();
    const months = (2026 - start.getUTCFullYear()) * 12 + (10 - start.getUTCMonth()) + 1;
    const [activity, profile] = await Promise.all([
      getPlayerMonthlyActivity({ playerId: "P000007", months, toMonth: "2026-11" }, db),
      getPlayerProfile({ playerId: "P000007" }, db),
    ]);
    expect(first && activity && first.date >= new Date(activity.from)).toBe(true);
    const rows = activity?.months ?? [];
    expect(sum(rows.map((m) => m.deposits.amount.digits))).toBe(profile?.kpi.ltd.digits);
    expect(sum(rows.map((m) => m.withdrawals.amount.digits))).toBe(profile?.kpi.ltw.digits);
    const completedBets = await db.transaction.count({
      where: { playerId: "P000007", eventType: "bet", completedAt: { not: null } },
    });
    expect(rows.reduce((n, m) => n + m.bets.count, 0)).toBe(completedBets);
  });
});
