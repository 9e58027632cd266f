import { type APIRequestContext, expect, test } from "@playwright/test";

const AUTH = { Authorization: "Bearer demo-token", "X-Session-ID": "e2e-session" };
const WHALE = "P000007";
const NO_TRANSACTIONS = "P000023";
const EVENT_TYPES = ["deposit", "withdrawal", "bonus", "bet", "win", "adjustment", "refund"];

type Facets = {
  player_id: string;
  total: number;
  event_types: { value: string; count: number }[];
  event_names: { value: string; count: number; event_types: string[] }[];
  created_by: { value: string; count: number }[];
  first_date: string | null;
  last_date: string | null;
};

async function listTotal(
  request: APIRequestContext,
  query: string,
): Promise<{ total: number; first?: string }> {
  const res = await request.get(`/api/v1/players/${WHALE}/transactions?${query}`, { headers: AUTH });
  expect(res.status()).toBe(200);
  const body = (await res.json()) as { total: number; transactions: { date: string }[] };
  return { total: body.total, first: body.transactions[0]?.date };
}

test.describe("GET /players/{playerId}/transaction-facets", () => {
  test("lists the whale's filter values with counts that match the filtered list", async ({ request }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/transaction-facets`, { headers: AUTH });
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    const facets = (await res.json()) as Facets;

    const all = await listTotal(request, "limit=1");
    expect(facets.total).toBe(all.total);
    expect(facets.event_types.map((t) => t.value)).toEqual(EVENT_TYPES);
    expect(facets.event_types.reduce((n, t) => n + t.count, 0)).toBe(all.total);
    for (const t of facets.event_types) {
      expect((await listTotal(request, `event_type=${t.value}&limit=1`)).total, t.value).toBe(t.count);
    }

    expect(facets.event_names.length).toBeGreaterThan(0);
    const names = facets.event_names.map((n) => n.value);
    expect(names).toEqual([...names].sort());
    expect(facets.event_names.reduce((n, e) => n + e.count, 0)).toBe(all.total);
    for (const name of facets.event_names.slice(0, 4)) {
      const q = `event_name=${encodeURIComponent(name.value)}&limit=1`;
      expect((await listTotal(request, q)).total, name.value).toBe(name.count);
      expect(name.event_types.length).toBeGreaterThan(0);
    }

    for (const creator of facets.created_by) {
      const q = `created_by=${encodeURIComponent(creator.value)}&limit=1`;
      expect((await listTotal(request, q)).total, creator.value).toBe(creator.count);
    }

    // Newest first: the list's first row is the last date, and its last row the first date.
    expect(facets.last_date).toBe(all.first);
    expect(facets.first_date).toBe((await listTotal(request, `limit=1&offset=${all.total - 1}`)).first);
  });

  test("a player without transactions has zero counts and no dates", async ({ request }) => {
    const facets = (await (
      await request.get(`/api/v1/players/${NO_TRANSACTIONS}/transaction-facets`, { headers: AUTH })
    ).json()) as Facets;
    expect(facets).toEqual({
      player_id: NO_TRANSACTIONS,
      total: 0,
      event_types: EVENT_TYPES.map((value) => ({ value, count: 0 })),
      event_names: [],
      created_by: [],
      first_date: null,
      last_date: null,
    });
  });

  test("takes the list's filters only: any other parameter is a 400 naming it", async ({ request }) => {
    const res = await request.get(`/api/v1/players/${WHALE}/transaction-facets?event_type=bet&limit=5`, {
      headers: AUTH,
    });
    expect(res.status()).toBe(400);
    const problem = (await res.json()) as { errors: { name: string }[] };
    expect(problem.errors.map((e) => e.name)).toEqual(["limit"]);
  });

  test("404 for an unknown player, 401 without credentials, 400 without a session id, 405 for other methods", async ({
    request,
  }) => {
    expect((await request.get("/api/v1/players/NOPE/transaction-facets", { headers: AUTH })).status()).toBe(
      404,
    );
    const anonymous = await request.get(`/api/v1/players/${WHALE}/transaction-facets`);
    expect(anonymous.status()).toBe(401);
    expect(((await anonymous.json()) as { errors: { name: string }[] }).errors[0]?.name).toBe(
      "Authorization",
    );
    const sessionless = await request.get(`/api/v1/players/${WHALE}/transaction-facets`, {
      headers: { Authorization: "Bearer x" },
    });
    expect(sessionless.status()).toBe(400);
    expect(((await sessionless.json()) as { errors: { name: string }[] }).errors[0]?.name).toBe(
      "X-Session-ID",
    );
    const del = await request.delete(`/api/v1/players/${WHALE}/transaction-facets`, { headers: AUTH });
    expect(del.status()).toBe(405);
  });
});
