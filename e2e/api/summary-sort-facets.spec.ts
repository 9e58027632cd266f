import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { type DecimalTree, parseWire } from "../../platform/client/wire-codec.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";
import { expectDocumented, expectProblem, get } from "./helpers.ts";

/*
 * Issue 12 over HTTP: the period summary, the list's sort, status filter and id lookup, and faceted filter counts.
 * Every 200 body is validated against the served OpenAPI document.
 */

const WHALE = "P000007";
const PLAYERS = "/api/v1/players";

/** A decimal string as an exact count of 1e-8 units. */
function units(value: string): bigint {
  const negative = value.startsWith("-");
  const [whole = "0", frac = ""] = value.replace("-", "").split(".");
  const n = BigInt(whole) * 100_000_000n + BigInt(frac.padEnd(8, "0"));
  return negative ? -n : n;
}

async function exact(request: APIRequestContext, path: string, decimals: DecimalTree) {
  const res = await get(request, path);
  expect(res.status(), await res.text()).toBe(200);
  // biome-ignore lint/suspicious/noExplicitAny: a JSON body read with its decimals as strings
  return parseWire(await res.text(), decimals) as any;
}

type Row = { id: string; amount: number; date: string; completed_at: string | null };

test.describe("GET /players/{playerId}/summary", () => {
  test("every period answers the documented shape; 30d is the default", async ({ request }) => {
    for (const period of ["30d", "90d", "365d", "all"]) {
      const body = await expectDocumented(
        request,
        await get(request, `${PLAYERS}/${WHALE}/summary?period=${period}`),
        "/players/{playerId}/summary",
      );
      expect(body).toMatchObject({ player_id: WHALE, period });
    }
    const byDefault = await expectDocumented(
      request,
      await get(request, `${PLAYERS}/${WHALE}/summary`),
      "/players/{playerId}/summary",
    );
    const today = new Date().toISOString().slice(0, 10);
    expect(byDefault.period).toBe("30d");
    expect(byDefault.to).toBe(new Date(Date.parse(today) + 86_400_000).toISOString());
    expect(byDefault.from).toBe(new Date(Date.parse(today) - 29 * 86_400_000).toISOString());
  });

  test("all time adds up exactly to the lifetime KPIs, with net and GGR from its own figures", async ({
    request,
  }) => {
    const summary = await exact(
      request,
      `${PLAYERS}/${WHALE}/summary?period=all`,
      WIRE_DECIMALS.playerSummary,
    );
    const profile = await exact(request, `${PLAYERS}/${WHALE}`, WIRE_DECIMALS.playerProfile);
    expect(summary.deposits.sum).toBe(profile.kpi.ltd);
    expect(summary.withdrawals.sum).toBe(profile.kpi.ltw);
    expect(units(summary.net_deposits)).toBe(units(summary.deposits.sum) - units(summary.withdrawals.sum));
    expect(units(summary.gross_gaming_revenue)).toBe(units(summary.bets.sum) - units(summary.wins.sum));
    expect(summary.deposits.count).toBeGreaterThan(0);
    // The counts are those of the completed transactions in the list.
    const deposits = await exact(
      request,
      `${PLAYERS}/${WHALE}/transactions?event_type=deposit&status=completed&limit=1`,
      WIRE_DECIMALS.transactionList,
    );
    expect(summary.deposits.count).toBe(deposits.total);
    const first = await exact(
      request,
      `${PLAYERS}/${WHALE}/transactions?sort=date_asc&limit=1`,
      WIRE_DECIMALS.transactionList,
    );
    expect(summary.first_activity).toBe(first.transactions[0].date);
  });

  test("bad parameters are 400 problems naming them; an unknown player is 404", async ({ request }) => {
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/summary?period=7d`), 400, ["period"]);
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/summary?from_date=2026-01-01`), 400, [
      "from_date",
    ]);
    await expectProblem(await get(request, `${PLAYERS}/NO-SUCH-PLAYER/summary`), 404);
  });

  test("is scoped (players:read) and audited as `summary`", async ({ request }) => {
    const noScope = await signToken("no-scope", { scope: "audit:read" });
    const denied = await request.get(`${PLAYERS}/P000042/summary`, { headers: authHeaders(noScope) });
    expect(denied.status()).toBe(403);

    const session = `e2e-${randomUUID()}`;
    const agent = await signToken("agent-summary", { roles: ["support_agent"] });
    const read = await request.get(`${PLAYERS}/P000042/summary?period=90d`, {
      headers: authHeaders(agent, session),
    });
    expect(read.status()).toBe(200);
    const admin = await signToken("admin-e2e", { roles: ["admin"] });
    await expect
      .poll(
        async () => {
          const res = await request.get(`${PLAYERS}/P000042/audit?operation=summary&limit=50`, {
            headers: authHeaders(admin),
          });
          const body = (await res.json()) as { events: { session_id: string }[] };
          return body.events.find((e) => e.session_id === session);
        },
        { timeout: 30_000 },
      )
      .toMatchObject({ subject: "agent-summary", operation: "summary", filters: { period: "90d" } });
  });
});

/** An amount's size: the amount orders sort by it (a −2,073 withdrawal is larger than a −145 one). */
const size = (amount: string) => {
  const u = units(amount);
  return u < 0n ? -u : u;
};

test.describe("the transaction list: sort, status, transaction_id", () => {
  test("sort=amount_desc|amount_asc orders by size (abs amount), id breaking ties; the total is unchanged", async ({
    request,
  }) => {
    const plain = await exact(
      request,
      `${PLAYERS}/${WHALE}/transactions?limit=1`,
      WIRE_DECIMALS.transactionList,
    );
    for (const sort of ["amount_desc", "amount_asc", "date_asc"]) {
      const res = await get(request, `${PLAYERS}/${WHALE}/transactions?sort=${sort}&limit=100`);
      await expectDocumented(request, res, "/players/{playerId}/transactions");
      const body = parseWire(await res.text(), WIRE_DECIMALS.transactionList) as {
        total: number;
        transactions: (Omit<Row, "amount"> & { amount: string })[];
      };
      expect(body.total).toBe(plain.total);
      const rows = body.transactions;
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1], rows[i]];
        if (!a || !b) continue;
        const cmp =
          sort === "date_asc"
            ? Math.sign(Date.parse(b.date) - Date.parse(a.date))
            : Number(size(b.amount) > size(a.amount)) - Number(size(b.amount) < size(a.amount));
        const direction = sort === "amount_desc" ? -1 : 1;
        expect(cmp === 0 ? (b.id > a.id ? 1 : -1) === direction : cmp === direction, `${sort} row ${i}`).toBe(
          true,
        );
      }
    }
  });

  test("cursor pages continue the sort they were issued for; another sort's cursor is a 400 naming cursor", async ({
    request,
  }) => {
    const filter = "event_type=deposit&sort=amount_asc";
    const byOffset: string[] = [];
    for (let offset = 0; offset < 60; offset += 20) {
      const page = await exact(
        request,
        `${PLAYERS}/${WHALE}/transactions?${filter}&limit=20&offset=${offset}`,
        WIRE_DECIMALS.transactionList,
      );
      byOffset.push(...page.transactions.map((t: Row) => t.id));
    }
    const byCursor: string[] = [];
    let cursor = "";
    for (let i = 0; i < 3; i++) {
      const page = await exact(
        request,
        `${PLAYERS}/${WHALE}/transactions?${filter}&limit=20${cursor ? `&cursor=${cursor}` : ""}`,
        WIRE_DECIMALS.transactionList,
      );
      byCursor.push(...page.transactions.map((t: Row) => t.id));
      cursor = page.next_cursor;
    }
    expect(byCursor).toEqual(byOffset);
    await expectProblem(
      await get(
        request,
        `${PLAYERS}/${WHALE}/transactions?event_type=deposit&sort=amount_desc&cursor=${cursor}`,
      ),
      400,
      ["cursor"],
    );
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/transactions?sort=amount`), 400, ["sort"]);
  });

  test("the export takes the same sort", async ({ request }) => {
    const list = await exact(
      request,
      `${PLAYERS}/P000042/transactions?sort=amount_desc&limit=100`,
      WIRE_DECIMALS.transactionList,
    );
    const res = await get(request, `${PLAYERS}/P000042/transactions/export?sort=amount_desc&format=ndjson`);
    expect(res.status()).toBe(200);
    const ids = (await res.text())
      .split("\n")
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(ids.slice(0, list.transactions.length)).toEqual(list.transactions.map((t: Row) => t.id));
    expect(ids).toHaveLength(list.total);
  });

  test("status=pending|completed splits the list exactly", async ({ request }) => {
    const player = "PTEST0001";
    const all = await exact(
      request,
      `${PLAYERS}/${player}/transactions?limit=100`,
      WIRE_DECIMALS.transactionList,
    );
    const pending = await exact(
      request,
      `${PLAYERS}/${player}/transactions?status=pending&limit=100`,
      WIRE_DECIMALS.transactionList,
    );
    const completed = await exact(
      request,
      `${PLAYERS}/${player}/transactions?status=completed&limit=100`,
      WIRE_DECIMALS.transactionList,
    );
    expect(pending.total).toBeGreaterThan(0);
    expect(pending.total + completed.total).toBe(all.total);
    expect(pending.transactions.every((t: Row) => t.completed_at === null)).toBe(true);
    expect(completed.transactions.every((t: Row) => t.completed_at !== null)).toBe(true);
    await expectProblem(await get(request, `${PLAYERS}/${player}/transactions?status=done`), 400, ["status"]);
  });

  test("transaction_id finds exactly one transaction of the player", async ({ request }) => {
    const page = await exact(
      request,
      `${PLAYERS}/${WHALE}/transactions?limit=5&offset=3`,
      WIRE_DECIMALS.transactionList,
    );
    const id = page.transactions[2].id as string;
    const hit = await exact(
      request,
      `${PLAYERS}/${WHALE}/transactions?transaction_id=${id}`,
      WIRE_DECIMALS.transactionList,
    );
    expect(hit.total).toBe(1);
    expect(hit.transactions.map((t: Row) => t.id)).toEqual([id]);
    const elsewhere = await exact(
      request,
      `${PLAYERS}/P000042/transactions?transaction_id=${id}`,
      WIRE_DECIMALS.transactionList,
    );
    expect(elsewhere.total).toBe(0);
  });
});

test.describe("GET /players/{playerId}/transaction-facets with filters", () => {
  test("each facet counts under the other filters; the total under all of them", async ({ request }) => {
    const res = await get(request, `${PLAYERS}/${WHALE}/transaction-facets?event_type=bet&status=completed`);
    const facets = await expectDocumented(request, res, "/players/{playerId}/transaction-facets");
    const total = async (qs: string) =>
      (await exact(request, `${PLAYERS}/${WHALE}/transactions?${qs}&limit=1`, WIRE_DECIMALS.transactionList))
        .total;
    expect(facets.total).toBe(await total("event_type=bet&status=completed"));
    const types = facets.event_types as { value: string; count: number }[];
    expect(types.find((t) => t.value === "win")?.count).toBe(await total("event_type=win&status=completed"));
    for (const creator of facets.created_by as { value: string; count: number }[]) {
      expect(creator.count).toBe(
        await total(`event_type=bet&status=completed&created_by=${encodeURIComponent(creator.value)}`),
      );
    }
    await expectProblem(await get(request, `${PLAYERS}/${WHALE}/transaction-facets?status=maybe`), 400, [
      "status",
    ]);
  });
});
