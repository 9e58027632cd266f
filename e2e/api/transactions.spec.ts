import { expect, test } from "@playwright/test";
import {
  EMPTY_FIXTURE_PLAYER_ID,
  FIXTURE_BOUNDS,
  FIXTURE_PLAYER_ID,
  FIXTURE_TRANSACTIONS,
} from "../../test/support/test-fixtures.ts";
import { expectDocumented, expectProblem, get } from "./helpers.ts";

const LIST = "/players/{playerId}/transactions";
const base = `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions`;
type Page = {
  transactions: { id: string; date: string; amount: number }[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
  next_cursor: string | null;
};

/** Reference order of all fixtures: date DESC, id DESC. */
const ALL = [...FIXTURE_TRANSACTIONS]
  .sort((a, b) => Date.parse(b.date) - Date.parse(a.date) || (a.id < b.id ? 1 : -1))
  .map((t) => t.id);

test.describe("GET /api/v1/players/{playerId}/transactions", () => {
  const list = async (request: Parameters<typeof get>[0], qs: string, path = base) =>
    (await expectDocumented(
      request,
      await get(request, `${path}${qs ? `?${qs}` : ""}`),
      LIST,
    )) as unknown as Page;
  const ids = async (request: Parameters<typeof get>[0], qs: string) =>
    (await list(request, qs)).transactions.map((t) => t.id);

  test("defaults: 20 newest first, ties by id descending", async ({ request }) => {
    const page = await list(request, "");
    expect(page).toMatchObject({ total: ALL.length, limit: 20, offset: 0, has_more: false });
    expect(page.transactions.map((t) => t.id)).toEqual(ALL);
    const tie = page.transactions.filter((t) => t.date === FIXTURE_BOUNDS.tie).map((t) => t.id);
    expect(tie).toEqual(["FX0103", "FX0102", "FX0101"]);
  });

  test("money digits are exact on the wire", async ({ request }) => {
    const text = await (await get(request, `${base}?limit=100`)).text();
    for (const digits of ["0.1", "0.2", "0.3", "123456789012.12345678", "-0.00000001", "-5", "1000"]) {
      expect(text, digits).toContain(`"amount":${digits},`);
    }
    expect(text).not.toContain("0.30000000");
    expect(text).not.toMatch(/"amount":-?\d+(\.\d+)?[eE]/);
  });

  test("the three list forms and their mix give the same result", async ({ request }) => {
    const expected = await ids(request, "event_type=bet&event_type=refund");
    expect(expected.length).toBeGreaterThan(1);
    for (const qs of [
      "event_type=bet,refund",
      "event_type[]=bet&event_type[]=refund",
      "event_type%5B%5D=bet&event_type=refund",
      "event_type=refund,bet",
    ]) {
      expect(await ids(request, qs), qs).toEqual(expected);
    }
  });

  test("each event type, event name, creator", async ({ request }) => {
    for (const type of ["deposit", "withdrawal", "bonus", "bet", "win", "adjustment", "refund"]) {
      const got = await ids(request, `event_type=${type}&limit=100`);
      const want = ALL.filter((id) => FIXTURE_TRANSACTIONS.find((t) => t.id === id)?.event_type === type);
      expect(got, type).toEqual(want);
      expect(got.length).toBeGreaterThan(0);
    }
    expect(await ids(request, "event_name=Casino%20Bet")).toEqual(["FX0305", "FX0302", "FX0301", "FX0205"]);
    expect(await ids(request, "event_name=Casino+Bet")).toEqual(["FX0305", "FX0302", "FX0301", "FX0205"]);
    expect(await ids(request, "event_name=casino%20bet")).toEqual([]);
    expect(await ids(request, "created_by=Admin")).toEqual(["FX0206", "FX0202"]);
    expect(await ids(request, "created_by=VIP%20Manager")).toEqual(["FX0204", "FX0203"]);
    expect((await list(request, "created_by=System&limit=100")).total).toBe(ALL.length - 4);
  });

  test("date bounds: inclusive, 1 ms outside excluded, offsets honoured, date-only to_date covers the day", async ({
    request,
  }) => {
    const { from, to, day } = FIXTURE_BOUNDS;
    expect(await ids(request, `from_date=${from}&to_date=${to}`)).toEqual(["FX0304", "FX0303", "FX0302"]);
    expect(await ids(request, "from_date=2025-03-10T00:00:00.001Z&to_date=2025-03-10T11:59:59.999Z")).toEqual(
      ["FX0303"],
    );
    expect(
      await ids(request, "from_date=2025-03-10T01:00:00%2B01:00&to_date=2025-03-10T07:00:00-05:00"),
    ).toEqual(["FX0304", "FX0303", "FX0302"]);
    expect(await ids(request, `from_date=${day}&to_date=${day}`)).toEqual([
      "FX0306",
      "FX0305",
      "FX0304",
      "FX0303",
      "FX0302",
    ]);
    expect(await ids(request, "from_date=2025-03-10T23:59:59.999Z&to_date=2025-03-10")).toEqual(["FX0306"]);
    expect(await ids(request, "to_date=2025-03-09&limit=1")).toEqual(["FX0301"]);
    expect(await ids(request, "from_date=2025-03-11")).toEqual(["FX0401", "FX0307"]);
  });

  test("the widest valid bounds and instants an offset pushes out of range", async ({ request }) => {
    expect(await ids(request, "from_date=0001-01-01&to_date=9999-12-31&limit=100")).toEqual(ALL);
    expect(await ids(request, "from_date=9999-12-31T23:59:59-23:59")).toEqual([]);
    // 0001-01-01T00:00+14:00 is in year 0, which PostgreSQL does not have: a 400, not a 500.
    await expectProblem(await get(request, `${base}?from_date=0001-01-01T00:00:00%2B14:00`), 400, [
      "from_date",
    ]);
    await expectProblem(await get(request, `${base}?to_date=0001-01-01T00:00:00%2B00:01`), 400, ["to_date"]);
  });

  test("filters combine with AND", async ({ request }) => {
    expect(await ids(request, "event_type=bet&created_by=System&from_date=2025-03-10")).toEqual([
      "FX0306",
      "FX0305",
      "FX0302",
    ]);
    expect(await ids(request, "event_type=win,refund&created_by=Admin")).toEqual(["FX0206"]);
    expect(await ids(request, "event_type=deposit&event_name=Casino%20Bet")).toEqual([]);
  });

  test("paging: limit/offset edges, has_more, offset past the end", async ({ request }) => {
    const n = ALL.length;
    const cases: [string, string[], boolean][] = [
      ["limit=1", ALL.slice(0, 1), true],
      ["limit=1&offset=0", ALL.slice(0, 1), true],
      [`limit=5&offset=${n - 5}`, ALL.slice(n - 5), false],
      [`limit=5&offset=${n - 6}`, ALL.slice(n - 6, n - 1), true],
      [`limit=100`, ALL, false],
      [`offset=${n - 1}`, ALL.slice(n - 1), false],
    ];
    for (const [qs, want, more] of cases) {
      const page = await list(request, qs);
      expect(
        page.transactions.map((t) => t.id),
        qs,
      ).toEqual(want);
      expect(page.has_more, qs).toBe(more);
      expect(page.next_cursor === null, qs).toBe(!more);
      expect(page.total, qs).toBe(n);
    }
    for (const offset of [n, n + 1, 1_000_000_000]) {
      const page = await list(request, `offset=${offset}&limit=7`);
      expect(page).toEqual({
        transactions: [],
        total: n,
        limit: 7,
        offset,
        has_more: false,
        next_cursor: null,
      });
    }
  });

  test("walking the whale's pages at limit 100 near the end and the start never overlaps", async ({
    request,
  }) => {
    const whale = "/api/v1/players/P000007/transactions";
    const first = await list(request, "limit=100", whale);
    expect(first.total).toBeGreaterThanOrEqual(20_000);
    expect(first.has_more).toBe(true);
    const seen = new Set<string>();
    for (const offset of [0, 100, 200, first.total - 150, first.total - 50]) {
      const page = await list(request, `limit=100&offset=${offset}`, whale);
      for (const t of page.transactions) {
        expect(seen.has(t.id), `${t.id} seen twice`).toBe(false);
        seen.add(t.id);
      }
      expect(page.has_more).toBe(offset + page.transactions.length < page.total);
      const dates = page.transactions.map((t) => Date.parse(t.date));
      expect([...dates].sort((a, b) => b - a)).toEqual(dates);
    }
  });

  test("a player without transactions is an empty page; an unknown player a 404", async ({ request }) => {
    expect(await list(request, "", `/api/v1/players/${EMPTY_FIXTURE_PLAYER_ID}/transactions`)).toEqual({
      transactions: [],
      total: 0,
      limit: 20,
      offset: 0,
      has_more: false,
      next_cursor: null,
    });
    await expectProblem(await get(request, "/api/v1/players/NO-SUCH/transactions"), 404);
    // An invalid query on an unknown player is still a 400: parameters are checked first.
    await expectProblem(await get(request, "/api/v1/players/NO-SUCH/transactions?limit=0"), 400, ["limit"]);
  });

  test("invalid parameters are 400 problems naming each one", async ({ request }) => {
    const cases: [string, string[]][] = [
      ["limit=0", ["limit"]],
      ["limit=101", ["limit"]],
      ["limit=-1", ["limit"]],
      ["limit=1.5", ["limit"]],
      ["limit=1e2", ["limit"]],
      ["limit=abc", ["limit"]],
      ["limit=", ["limit"]],
      ["limit=99999999999999999999999999", ["limit"]],
      ["offset=-1", ["offset"]],
      ["offset=1.0", ["offset"]],
      ["offset=1000000001", ["offset"]],
      ["event_type=payout", ["event_type"]],
      ["event_type=bet,", ["event_type"]],
      ["event_type=BET", ["event_type"]],
      ["from_date=yesterday", ["from_date"]],
      ["from_date=2025-02-29", ["from_date"]],
      ["to_date=2025-13-01", ["to_date"]],
      ["to_date=2025-03-10T24:00:00Z", ["to_date"]],
      ["from_date=2025-03-11&to_date=2025-03-10", ["from_date"]],
      ["from_date=2025-03-10T12:00:00.001Z&to_date=2025-03-10T12:00:00Z", ["from_date"]],
      ["created_by=", ["created_by"]],
      ["created_by=Admin&created_by=System", ["created_by"]],
      ["limit=5&limit=6", ["limit"]],
      ["eventType=bet", ["eventType"]],
      ["foo=1&bar=2", ["bar", "foo"]],
      ["limit=0&offset=-1&event_type=x&from_date=x", ["event_type", "from_date", "limit", "offset"]],
    ];
    for (const [qs, names] of cases) {
      const body = await expectProblem(await get(request, `${base}?${qs}`), 400, names);
      expect(body.type, qs).toMatch(/^https?:\/\/[^/]+\/problems\/invalid-parameters$/);
      expect(
        body.errors?.every((e) => e.in === "query" && e.detail.length > 0),
        qs,
      ).toBe(true);
    }
  });
});
