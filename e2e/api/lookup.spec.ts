import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { expectDocumented, expectProblem } from "./helpers.ts";

/*
 * The support lookup over HTTP (issue 23): names without accents, exact contact matches for a support agent
 * (contact data masked) that reveal nothing in part, namesakes' fields, transaction ids; every body validated
 * against the served OpenAPI document; the audit page's user and readers filters.
 */

type Summary = {
  id: string;
  name: string;
  email: string | null;
  phone: string | null;
  last_activity: string | null;
};
type Result = {
  players: Summary[];
  total: number;
  transactions: { id: string; player_id: string; player_name: string; date: string; event_type: string }[];
};

async function lookup(
  request: APIRequestContext,
  token: string,
  q: string,
  session = "e2e-lookup",
): Promise<Result> {
  const res = await request.get(`/api/v1/players?${new URLSearchParams({ q, limit: "100" })}`, {
    headers: authHeaders(token, session),
  });
  return (await expectDocumented(request, res, "/players")) as unknown as Result;
}
const ids = (r: Result) => r.players.map((p) => p.id);

test.describe("the support lookup", () => {
  test("names match without accents or case: zoe cote finds the Zoé Côtés", async ({ request }) => {
    const agent = await signToken("agent-lookup", { roles: ["support_agent"] });
    const found = await lookup(request, agent, "zoe cote");
    expect(found.total).toBeGreaterThan(0);
    for (const p of found.players)
      expect(p.name.normalize("NFD").replace(/\p{M}/gu, "")).toMatch(/Zoe Cote/i);
    expect(ids(await lookup(request, agent, "CÔTÉ ZOÉ"))).toEqual(ids(found));
  });

  test("a support agent finds a player by a whole e-mail address or phone number, masked; a part reveals nothing", async ({
    request,
  }) => {
    const agent = await signToken("agent-lookup", { roles: ["support_agent"] });
    const byEmail = await lookup(request, agent, "FIXTURE.Player@example.COM");
    expect(byEmail.players.map((p) => [p.id, p.email, p.phone])).toEqual([
      [FIXTURE_PLAYER_ID, "f***@example.com", "+44 ••• ••• 01"],
    ]);
    expect(JSON.stringify(byEmail)).not.toContain("fixture.player@");
    expect(ids(await lookup(request, agent, "0044 7000 000001"))).toEqual([FIXTURE_PLAYER_ID]);
    for (const q of [
      "fixture.player@example",
      "fixture.player@",
      "@example.com",
      "+44 700000000",
      "7000000001",
    ]) {
      const r = await lookup(request, agent, q);
      expect(ids(r), q).not.toContain(FIXTURE_PLAYER_ID);
    }
    // A role that may read contact data still finds by a part of an address.
    const vip = await signToken("vip-lookup", { roles: ["vip_manager"] });
    expect(ids(await lookup(request, vip, "fixture.player@example"))).toEqual([FIXTURE_PLAYER_ID]);
  });

  test("each result tells namesakes apart: the phone's last digits and the last activity", async ({
    request,
  }) => {
    const agent = await signToken("agent-lookup", { roles: ["support_agent"] });
    const [fixture] = (await lookup(request, agent, FIXTURE_PLAYER_ID)).players;
    expect(fixture?.phone).toBe("+44 ••• ••• 01");
    expect(fixture?.last_activity).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  });

  test("a transaction id in any case finds it and its player; the audit row names that player", async ({
    request,
  }) => {
    const session = `e2e-tx-${randomUUID()}`;
    const who = `agent-tx-${session}`;
    const agent = await signToken(who, { roles: ["support_agent"] });
    const found = await lookup(request, agent, "fx0401", session);
    expect(found.transactions).toEqual([
      expect.objectContaining({ id: "FX0401", player_id: FIXTURE_PLAYER_ID, player_name: "Fixture Player" }),
    ]);
    expect(found.players).toEqual([]);
    expect((await lookup(request, agent, "fx040", session)).transactions).toEqual([]);

    const admin = await signToken("admin-lookup", { roles: ["admin"], name: "Alex Admin" });
    const audit = async () => {
      const res = await request.get(`/api/v1/audit?subject=${encodeURIComponent(who)}&limit=10`, {
        headers: authHeaders(admin),
      });
      return (await expectDocumented(request, res, "/audit")) as {
        events: { operation: string; result_player_ids: string[]; filters: Record<string, unknown> }[];
      };
    };
    await expect.poll(async () => (await audit()).events.length, { timeout: 30_000 }).toBe(2);
    const [, first] = (await audit()).events;
    expect(first).toMatchObject({
      operation: "search",
      result_player_ids: [FIXTURE_PLAYER_ID],
      filters: { q: "fx0401" },
    });
  });

  test("the transaction opens in its player's list, filtered to it", async ({ request }) => {
    const res = await request.get(`/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?transaction_id=FX0401`, {
      headers: authHeaders(await signToken("agent-lookup", { roles: ["support_agent"] })),
    });
    const body = (await expectDocumented(request, res, "/players/{playerId}/transactions")) as {
      transactions: { id: string }[];
    };
    expect(body.transactions.map((t) => t.id)).toEqual(["FX0401"]);
  });
});

test.describe("the audit page's filters", () => {
  test("user matches the display name or its beginning; readers say who read a player", async ({
    request,
  }) => {
    const session = `e2e-readers-${randomUUID()}`;
    const who = `agent-readers-${session}`;
    const name = `Rita Reader ${session}`;
    const agent = await signToken(who, { roles: ["support_agent"], name });
    for (const path of ["P000044", "P000044/transactions?limit=2", "P000044"]) {
      const read = await request.get(`/api/v1/players/${path}`, { headers: authHeaders(agent, session) });
      expect(read.status()).toBe(200);
    }
    const headers = authHeaders(await signToken("admin-readers", { roles: ["admin"], name: "Alex Admin" }));
    const list = async (query: string) =>
      (await expectDocumented(
        request,
        await request.get(`/api/v1/audit?${query}`, { headers }),
        "/audit",
      )) as {
        events: { subject: string }[];
        readers:
          | { subject: string; subject_name: string | null; reads: number; last_read_at: string }[]
          | null;
      };
    const byName = `user=${encodeURIComponent(name.toLowerCase().slice(0, -4))}`;
    await expect.poll(async () => (await list(byName)).events.length, { timeout: 30_000 }).toBe(3);
    expect((await list(`user=${encodeURIComponent(who)}`)).events).toHaveLength(3);
    expect((await list(byName)).readers).toBeNull();
    const readers = (await list(`${byName}&player_id=P000044`)).readers;
    expect(readers).toEqual([
      { subject: who, subject_name: name, reads: 3, last_read_at: expect.any(String) },
    ]);
  });

  test("bad user, and the lookup's q, are 400 problems naming them", async ({ request }) => {
    const headers = authHeaders(await signToken("admin-readers", { roles: ["admin"] }));
    await expectProblem(await request.get("/api/v1/audit?user=", { headers }), 400, ["user"]);
    await expectProblem(await request.get(`/api/v1/audit?user=${"a".repeat(201)}`, { headers }), 400, [
      "user",
    ]);
    await expectProblem(await request.get("/api/v1/audit?user=a&user=b", { headers }), 400, ["user"]);
    await expectProblem(await request.get("/api/v1/players?q=%00fx0401", { headers }), 400, ["q"]);
  });
});
