import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";
import { expectDocumented, expectProblem } from "./helpers.ts";

/*
 * GET /api/v1/audit: the admins' audit trail across all players. Scopes, filters as problem+json, bodies as
 * documented, the reader's name recorded, cursor paging with the filters kept.
 */

const adminToken = () => signToken("admin-e2e", { roles: ["admin"], name: "Alex Admin" });

test("only audit:read may list it: 403 insufficient_scope for a VIP manager, an agent and the demo token", async ({
  request,
}) => {
  const tokens = [
    "any-demo-token",
    await signToken("vip", { roles: ["vip_manager"] }),
    await signToken("agent", { roles: ["support_agent"] }),
  ];
  for (const token of tokens) {
    const res = await request.get("/api/v1/audit", { headers: authHeaders(token) });
    await expectProblem(res, 403);
    expect(res.headers()["www-authenticate"]).toContain('error="insufficient_scope"');
  }
});

test("bad filters are a 400 problem naming each parameter", async ({ request }) => {
  const headers = authHeaders(await adminToken());
  const cases: [string, string[]][] = [
    ["operation=everything", ["operation"]],
    ["from_date=yesterday&to_date=2026-13-01", ["from_date", "to_date"]],
    ["from_date=2026-02-01&to_date=2026-01-31", ["from_date"]],
    ["cursor=abc&limit=0", ["cursor", "limit"]],
    ["subject=", ["subject"]],
    ["player=P1", ["player"]],
  ];
  for (const [query, names] of cases) {
    await expectProblem(await request.get(`/api/v1/audit?${query}`, { headers }), 400, names);
  }
});

test("names the reader, filters by user, player, operation and period, and pages by cursor", async ({
  request,
}) => {
  const session = `e2e-${randomUUID()}`;
  const who = `agent-${session}`;
  const agent = await signToken(who, { roles: ["support_agent"], preferred_username: "agent.smith" });
  for (const path of ["P000042", "P000042/transactions?limit=3", "P000043", "P000043/transaction-facets"]) {
    const read = await request.get(`/api/v1/players/${path}`, { headers: authHeaders(agent, session) });
    expect(read.status()).toBe(200);
  }
  const headers = authHeaders(await adminToken());
  const list = async (query: string) => {
    const res = await request.get(`/api/v1/audit?subject=${encodeURIComponent(who)}&${query}`, { headers });
    return (await expectDocumented(request, res, "/audit")) as {
      events: {
        id: string;
        subject: string;
        subject_name: string | null;
        operation: string;
        player_id: string;
      }[];
      next_cursor: string | null;
      has_more: boolean;
    };
  };
  // The reads are written in the background: wait until all four are there.
  await expect.poll(async () => (await list("limit=10")).events.length, { timeout: 30_000 }).toBe(4);

  const all = await list("limit=10");
  expect(all.events.map((e) => [e.operation, e.player_id])).toEqual([
    ["transaction_facets", "P000043"],
    ["profile", "P000043"],
    ["transactions", "P000042"],
    ["profile", "P000042"],
  ]);
  expect(new Set(all.events.map((e) => `${e.subject} / ${e.subject_name}`))).toEqual(
    new Set([`${who} / agent.smith`]),
  );
  expect((await list("player_id=P000042")).events.map((e) => e.operation)).toEqual([
    "transactions",
    "profile",
  ]);
  expect((await list("operation=profile")).events.map((e) => e.player_id)).toEqual(["P000043", "P000042"]);
  expect((await list("to_date=2000-01-01")).events).toEqual([]);
  const today = new Date().toISOString().slice(0, 10);
  expect((await list(`from_date=${today}`)).events).toHaveLength(4);

  // Two pages of two, the filters kept: the same four, no repeats.
  const first = await list("limit=2");
  expect(first.has_more).toBe(true);
  const second = await list(`limit=2&cursor=${first.next_cursor}`);
  expect(second.has_more).toBe(false);
  expect([...first.events, ...second.events].map((e) => e.id)).toEqual(all.events.map((e) => e.id));
});
