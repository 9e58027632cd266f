import { expect, test } from "@playwright/test";
import { parseWire } from "../../platform/client/wire-codec.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";

const AUTH = { Authorization: "Bearer demo-token", "X-Session-ID": "e2e-session" };
const WHALE = "P000007";
const NO_TRANSACTIONS = "P000023"; // every 23rd demo player never played

type Flow = { count: number; amount: string };
type Activity = {
  player_id: string;
  currency: string;
  from: string;
  to: string;
  months: { month: string; deposits: Flow; withdrawals: Flow; bets: Flow; wins: Flow }[];
};

/** Exact sum of decimal strings (up to 8 fractional digits). */
function sum(values: string[]): string {
  const total = values.reduce((acc, v) => {
    const negative = v.startsWith("-");
    const [whole = "0", frac = ""] = v.replace("-", "").split(".");
    const n = BigInt(whole) * 100_000_000n + BigInt(frac.padEnd(8, "0"));
    return acc + (negative ? -n : n);
  }, 0n);
  const abs = total < 0n ? -total : total;
  const frac = (abs % 100_000_000n).toString().padStart(8, "0").replace(/0+$/, "");
  return `${total < 0n ? "-" : ""}${abs / 100_000_000n}${frac ? `.${frac}` : ""}`;
}

test.describe("GET /players/{playerId}/monthly-activity", () => {
  test("defaults to the last 12 months up to the current one, oldest first, every month present", async ({
    request,
  }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/monthly-activity`, { headers: AUTH });
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    expect(res.headers()["x-request-id"]).toBeTruthy();
    const body = (await res.json()) as Activity;
    expect(body.player_id).toBe(WHALE);
    const profile = await request.get(`/api/v1/players/${WHALE}`, { headers: AUTH });
    expect(body.currency).toBe((await profile.json()).currency);
    expect(body.months).toHaveLength(12);
    const now = new Date();
    const current = `${now.getUTCFullYear()}-${String(now.getUTCMonth() + 1).padStart(2, "0")}`;
    expect(body.months.at(-1)?.month).toBe(current);
    expect(body.to).toBe(new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + 1, 1)).toISOString());
    for (const m of body.months) {
      for (const flow of [m.deposits, m.withdrawals, m.bets, m.wins]) {
        expect(flow.count).toBeGreaterThanOrEqual(0);
        expect(Number(flow.amount)).toBeGreaterThanOrEqual(0);
      }
    }
    // The demo data runs up to its reference date (2026-11-20): the busiest player bet in each of the 12 months.
    const toReference = await request.get(`/api/v1/players/${WHALE}/monthly-activity?to_month=2026-11`, {
      headers: AUTH,
    });
    const months = ((await toReference.json()) as Activity).months;
    expect(months).toHaveLength(12);
    expect(months.filter((m) => m.bets.count === 0).map((m) => m.month)).toEqual([]);
  });

  test("reports the requested window", async ({ request }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/monthly-activity?to_month=2026-02&months=3`, {
      headers: AUTH,
    });
    const body = (await res.json()) as Activity;
    expect(body.months.map((m) => m.month)).toEqual(["2025-12", "2026-01", "2026-02"]);
    expect(body.from).toBe("2025-12-01T00:00:00.000Z");
    expect(body.to).toBe("2026-03-01T00:00:00.000Z");
    expect(body.months.some((m) => m.bets.count > 0)).toBe(true);
  });

  test("adds up to the lifetime KPIs and the transaction list over the whole history", async ({
    request,
  }) => {
    const activity = parseWire(
      await (
        await request.get(`/api/v1/players/${WHALE}/monthly-activity?to_month=2026-11&months=36`, {
          headers: AUTH,
        })
      ).text(),
      WIRE_DECIMALS.monthlyActivity,
    ) as Activity;
    const profile = parseWire(
      await (await request.get(`/api/v1/players/${WHALE}`, { headers: AUTH })).text(),
      WIRE_DECIMALS.playerProfile,
    ) as { kpi: { ltd: string; ltw: string } };
    expect(sum(activity.months.map((m) => m.deposits.amount))).toBe(profile.kpi.ltd);
    expect(sum(activity.months.map((m) => m.withdrawals.amount))).toBe(profile.kpi.ltw);

    // Completed deposits counted through the public list agree with the chart's counts.
    let completed = 0;
    for (let offset = 0; ; offset += 100) {
      const page = (await (
        await request.get(
          `/api/v1/players/${WHALE}/transactions?event_type=deposit&limit=100&offset=${offset}`,
          {
            headers: AUTH,
          },
        )
      ).json()) as { transactions: { completed_at: string | null }[]; has_more: boolean };
      completed += page.transactions.filter((t) => t.completed_at !== null).length;
      if (!page.has_more) break;
    }
    expect(activity.months.reduce((n, m) => n + m.deposits.count, 0)).toBe(completed);
  });

  test("gives zeros for a player without transactions", async ({ request }) => {
    const body = (await (
      await request.get(`/api/v1/players/${NO_TRANSACTIONS}/monthly-activity?months=3&to_month=2026-11`, {
        headers: AUTH,
      })
    ).json()) as Activity;
    expect(
      body.months.map((m) => [m.deposits.count, m.withdrawals.count, m.bets.count, m.wins.count]),
    ).toEqual([
      [0, 0, 0, 0],
      [0, 0, 0, 0],
      [0, 0, 0, 0],
    ]);
    expect(body.months[0]?.deposits.amount).toBe(0);
  });

  test("the last accepted month, 9999-11, answers with RFC 3339 date-times (four-digit years)", async ({
    request,
  }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/monthly-activity?to_month=9999-11&months=1`, {
      headers: AUTH,
    });
    expect(res.status()).toBe(200);
    const body = (await res.json()) as Activity;
    expect(body.from).toBe("9999-11-01T00:00:00.000Z");
    expect(body.to).toBe("9999-12-01T00:00:00.000Z");
    expect(body.months.map((m) => m.month)).toEqual(["9999-11"]);
  });

  test("the first rejected month, 9999-12, is a 400 whose detail gives the bound", async ({ request }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/monthly-activity?to_month=9999-12&months=1`, {
      headers: AUTH,
    });
    expect(res.status()).toBe(400);
    const problem = (await res.json()) as { errors: { name: string; detail: string }[] };
    expect(problem.errors).toEqual([
      expect.objectContaining({ name: "to_month", detail: expect.stringContaining("9999-11") }),
    ]);
  });

  for (const [query, name] of [
    ["months=0", "months"],
    ["months=37", "months"],
    ["months=1.5", "months"],
    ["months=", "months"],
    ["to_month=2026-13", "to_month"],
    ["to_month=2026-1", "to_month"],
    ["to_month=1899-12", "to_month"],
    ["to_month=9999-12&months=1", "to_month"],
    ["months=3&months=4", "months"],
    ["month=3", "month"],
  ] as const) {
    test(`rejects ${query} naming ${name}`, async ({ request }) => {
      const res = await request.get(`/api/v1/players/${WHALE}/monthly-activity?${query}`, { headers: AUTH });
      expect(res.status()).toBe(400);
      expect(res.headers()["content-type"]).toContain("application/problem+json");
      const problem = (await res.json()) as { errors: { name: string; in: string }[] };
      expect(problem.errors.map((e) => e.name)).toContain(name);
    });
  }

  test("404 for an unknown player, 401 without credentials, 405 for other methods", async ({ request }) => {
    const unknown = await request.get("/api/v1/players/NO-SUCH-PLAYER/monthly-activity", { headers: AUTH });
    expect(unknown.status()).toBe(404);
    expect((await unknown.json()).request_id).toBe(unknown.headers()["x-request-id"]);
    const anonymous = await request.get(`/api/v1/players/${WHALE}/monthly-activity`);
    expect(anonymous.status()).toBe(401);
    expect(anonymous.headers()["www-authenticate"]).toContain("Bearer");
    const post = await request.post(`/api/v1/players/${WHALE}/monthly-activity`, { headers: AUTH });
    expect(post.status()).toBe(405);
    expect(post.headers().allow).toBe("GET, HEAD");
  });
});
