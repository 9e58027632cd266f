import { type APIRequestContext, expect, test } from "@playwright/test";
import { type DecimalTree, parseWire } from "../../platform/client/wire-codec.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { expectDocumented, expectProblem, get } from "./helpers.ts";

/*
 * Issue 23 over HTTP: the summary's previous period, the totals under the list's filters, the monthly net
 * figures. Every 200 body is validated against the served OpenAPI document.
 */
const WHALE = "P000007";
const PLAYERS = "/api/v1/players";
const DAY = 86_400_000;

/** An exact decimal as units of 10⁻⁸, the stored scale. */
function units(v: string): bigint {
  const [w = "0", f = ""] = v.replace("-", "").split(".");
  const n = BigInt(w) * 100_000_000n + BigInt(f.padEnd(8, "0"));
  return v.startsWith("-") ? -n : n;
}

async function documented(
  request: APIRequestContext,
  path: string,
  operation: string,
  decimals: DecimalTree,
  // biome-ignore lint/suspicious/noExplicitAny: JSON bodies read with their decimals as strings
): Promise<any> {
  const res = await get(request, path);
  expect(res.status(), await res.text()).toBe(200);
  await expectDocumented(request, res, operation);
  return parseWire(await res.text(), decimals);
}

test.describe("issue 23 reads", () => {
  test("the summary carries the previous period of the same length, ending where the period starts", async ({
    request,
  }) => {
    const s = await documented(
      request,
      `${PLAYERS}/${WHALE}/summary?period=90d`,
      "/players/{playerId}/summary",
      WIRE_DECIMALS.playerSummary,
    );
    expect(s.previous.to).toBe(s.from);
    expect(Date.parse(s.previous.to) - Date.parse(s.previous.from)).toBe(90 * DAY);
    // Its deposits are the completed deposits of its days in the list.
    const list = await documented(
      request,
      `${PLAYERS}/${WHALE}/transactions?event_type=deposit&status=completed&from_date=${s.previous.from}&to_date=${new Date(Date.parse(s.previous.to) - 1).toISOString()}&limit=1`,
      "/players/{playerId}/transactions",
      WIRE_DECIMALS.transactionList,
    );
    expect(s.previous.deposits.count).toBe(list.total);
    const all = await documented(
      request,
      `${PLAYERS}/${WHALE}/summary?period=all`,
      "/players/{playerId}/summary",
      WIRE_DECIMALS.playerSummary,
    );
    expect(all.previous).toBeNull();
  });

  test("totals: the count is the list's total, the sum its completed amounts', by_status each status's", async ({
    request,
  }) => {
    for (const qs of [
      "event_type=deposit&status=completed&from_date=2026-01-01&to_date=2026-03-31",
      "event_type=bet,win&status=completed&from_date=2026-02-01T12:00:00Z&to_date=2026-02-20T06:00:00Z",
      "event_type=withdrawal&status=pending",
      "event_type=withdrawal&from_date=2026-10-01",
      "event_type=bonus",
    ]) {
      const totals = await documented(
        request,
        `${PLAYERS}/${WHALE}/transaction-totals?${qs}`,
        "/players/{playerId}/transaction-totals",
        WIRE_DECIMALS.transactionTotals,
      );
      const rows: { amount: string; currency: string; status: string }[] = [];
      for (let offset = 0; ; offset += 100) {
        const page = await documented(
          request,
          `${PLAYERS}/${WHALE}/transactions?${qs}&limit=100&offset=${offset}`,
          "/players/{playerId}/transactions",
          WIRE_DECIMALS.transactionList,
        );
        rows.push(...page.transactions);
        if (!page.has_more) break;
      }
      expect(totals.count, qs).toBe(rows.length);
      // Per currency: [count, completed sum, per status [count, sum]], from the listed rows.
      const statuses = ["completed", "pending", "failed", "cancelled"];
      const expected = new Map<string, [number, bigint, Record<string, [number, bigint]>]>();
      for (const r of rows) {
        const e = expected.get(r.currency) ?? [0, 0n, Object.fromEntries(statuses.map((s) => [s, [0, 0n]]))];
        const [n, sum] = e[2][r.status] ?? [0, 0n];
        e[2][r.status] = [n + 1, sum + units(r.amount)];
        expected.set(r.currency, [e[0] + 1, r.status === "completed" ? e[1] + units(r.amount) : e[1], e[2]]);
      }
      type StatusTotal = { count: number; sum: string };
      const answered = totals.by_currency.map(
        (c: { currency: string; count: number; sum: string; by_status: Record<string, StatusTotal> }) => [
          c.currency,
          [
            c.count,
            units(c.sum),
            Object.fromEntries(
              statuses.map((s) => [s, [c.by_status?.[s]?.count, units(c.by_status?.[s]?.sum ?? "")]]),
            ),
          ],
        ],
      );
      expect(answered, qs).toEqual([...expected.entries()].sort());
    }
    // The pending withdrawals moved no money yet: a count, a zero sum, their amounts under by_status.pending.
    const pending = await documented(
      request,
      `${PLAYERS}/${WHALE}/transaction-totals?event_type=withdrawal&status=pending`,
      "/players/{playerId}/transaction-totals",
      WIRE_DECIMALS.transactionTotals,
    );
    expect(pending.count).toBeGreaterThan(0);
    expect(pending.by_currency[0].sum).toBe("0");
    expect(units(pending.by_currency[0].by_status.pending.sum)).toBeLessThan(0n);
  });

  test("totals: bad filters are 400 problems naming them; an unknown player is 404", async ({ request }) => {
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/transaction-totals?event_type=nope`), 400, [
      "event_type",
    ]);
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/transaction-totals?limit=5`), 400, ["limit"]);
    await expectProblem(await get(request, `${PLAYERS}/NO-SUCH-PLAYER/transaction-totals`), 404);
  });

  test("monthly activity: net figures are exact differences; only the current month is partial", async ({
    request,
  }) => {
    const a = await documented(
      request,
      `${PLAYERS}/${WHALE}/monthly-activity?months=12`,
      "/players/{playerId}/monthly-activity",
      WIRE_DECIMALS.monthlyActivity,
    );
    const current = new Date().toISOString().slice(0, 7);
    for (const m of a.months) {
      expect(m.partial, m.month).toBe(m.month === current);
      const diff = (x: string, y: string) => Number(x) - Number(y);
      expect(Number(m.net_deposits)).toBeCloseTo(diff(m.deposits.amount, m.withdrawals.amount), 6);
      expect(Number(m.gross_gaming_revenue)).toBeCloseTo(diff(m.bets.amount, m.wins.amount), 6);
    }
  });
});
