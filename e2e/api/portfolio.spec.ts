import { createHash, randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";
import { expectDocumented, expectProblem } from "./helpers.ts";

/*
 * GET /api/v1/portfolio: who may read whose book, bad input as problem+json naming `manager`, the body as
 * documented, the demo books (each holds every flag), and the audit row listing the players returned.
 */

const FLAGS = ["churn_risk", "big_withdrawal", "pending_withdrawal_24h", "deposit_spike"];
const admin = () => signToken("admin-e2e", { roles: ["admin"], name: "Alex Admin" });
// The demo account vip.manager's subject: with the demo accounts on, VIP_MANAGER_SUBJECTS maps it to Sarah Mitchell.
const sarah = () => signToken("demo-vip-manager", { roles: ["vip_manager"], name: "Sarah Mitchell" });
/** Sarah's display name under another subject (a user renamed at the identity provider): no book. */
const namesake = () => signToken("vip-namesake", { roles: ["vip_manager"], name: "Sarah Mitchell" });

interface Book {
  manager: string;
  as_of: string;
  players: { id: string; flags: string[] }[];
}

test("who may read: a manager their own book, an admin any; everyone else 403 naming manager", async ({
  request,
}) => {
  const refused: [string, string][] = [
    ["any-demo-token", ""],
    [await signToken("agent", { roles: ["support_agent"], name: "Tom Becker" }), ""],
    [await signToken("agent", { roles: ["support_agent"], name: "Tom Becker" }), "?manager=Tom%20Becker"],
    [await signToken("vip-anon", { roles: ["vip_manager"] }), ""],
    [await sarah(), "?manager=David%20Chen"],
    [await namesake(), ""],
    [await namesake(), "?manager=Sarah%20Mitchell"],
    [await signToken("client", { scope: "players:read players:pii" }), "?manager=David%20Chen"],
  ];
  for (const [token, query] of refused) {
    const res = await request.get(`/api/v1/portfolio${query}`, { headers: authHeaders(token) });
    await expectProblem(res, 403, ["manager"]);
  }
  const own = await request.get("/api/v1/portfolio", { headers: authHeaders(await sarah()) });
  expect(((await expectDocumented(request, own, "/portfolio")) as unknown as Book).manager).toBe(
    "Sarah Mitchell",
  );
  const named = await request.get("/api/v1/portfolio?manager=Sarah%20Mitchell", {
    headers: authHeaders(await sarah()),
  });
  expect(named.status()).toBe(200);
});

test("bad input is a 400 problem naming the parameter", async ({ request }) => {
  const headers = authHeaders(await admin());
  const cases: [string, string[]][] = [
    ["", ["manager"]], // an admin must name a book
    ["?manager=", ["manager"]],
    [`?manager=${"x".repeat(201)}`, ["manager"]],
    ["?manager=a&manager=b", ["manager"]],
    ["?manager=David%20Chen&flag=churn_risk", ["flag"]],
  ];
  for (const [query, names] of cases) {
    await expectProblem(await request.get(`/api/v1/portfolio${query}`, { headers }), 400, names);
  }
});

test("each demo book is 20–40 players holding every flag, as of the demo's clock", async ({ request }) => {
  const headers = authHeaders(await admin());
  const managers = await request.get("/api/v1/portfolio/managers", { headers });
  const list = (await expectDocumented(request, managers, "/portfolio/managers")) as {
    managers: { name: string; players: number }[];
  };
  expect(list.managers.map((m) => m.name)).toEqual([
    "David Chen",
    "Elena Rossi",
    "Marcus Berg",
    "Sarah Mitchell",
  ]);
  for (const { name, players } of list.managers) {
    const res = await request.get(`/api/v1/portfolio?manager=${encodeURIComponent(name)}`, { headers });
    const book = (await expectDocumented(request, res, "/portfolio")) as unknown as Book;
    expect(book.as_of).toBe("2026-11-20T12:00:00.000Z");
    expect(book.players).toHaveLength(players);
    expect(players).toBeGreaterThanOrEqual(20);
    expect(players).toBeLessThanOrEqual(40);
    expect(new Set(book.players.flatMap((p) => p.flags))).toEqual(new Set(FLAGS));
    expect(book.players.map((p) => p.id)).toEqual([...book.players.map((p) => p.id)].sort());
  }
  const sarahs = await request.get("/api/v1/portfolio", { headers: authHeaders(await sarah()) });
  expect(((await sarahs.json()) as Book).players.map((p) => p.id)).toContain("P000007");
  // The list of managers is an admin's choice only.
  await expectProblem(
    await request.get("/api/v1/portfolio/managers", { headers: authHeaders(await sarah()) }),
    403,
  );
});

test("a portfolio read is audited with the ids of the players returned", async ({ request }) => {
  const session = `e2e-${randomUUID()}`;
  const who = `admin-${session}`;
  const reader = await signToken(who, { roles: ["admin"], name: "Alex Admin" });
  const res = await request.get("/api/v1/portfolio?manager=Elena%20Rossi", {
    headers: authHeaders(reader, session),
  });
  const book = (await res.json()) as Book;
  expect(res.status()).toBe(200);
  const audit = await request.get(`/api/v1/audit?subject=${encodeURIComponent(who)}&operation=portfolio`, {
    headers: authHeaders(await admin()),
  });
  const events = (
    (await audit.json()) as {
      events: {
        player_id: string | null;
        result_player_ids: string[];
        filters: object;
        session_id: string;
      }[];
    }
  ).events;
  expect(events).toHaveLength(1);
  expect(events[0]).toMatchObject({
    player_id: null,
    result_player_ids: book.players.map((p) => p.id),
    filters: { manager: "Elena Rossi" },
    session_id: session,
  });
});

test("a book read again (from the kept rows) is the same document, tag and audit as the first", async ({
  request,
}) => {
  const session = `e2e-${randomUUID()}`;
  const who = `admin-${session}`;
  const headers = authHeaders(await signToken(who, { roles: ["admin"], name: "Alex Admin" }), session);
  const path = "/api/v1/portfolio?manager=Marcus%20Berg";
  const first = await request.get(path, { headers });
  const second = await request.get(path, { headers });
  expect(second.headers()["content-type"]).toBe("application/json; charset=utf-8");
  expect(await second.text()).toBe(await first.text());
  await expectDocumented(request, second, "/portfolio");
  const etag = second.headers().etag ?? "";
  expect(etag).toMatch(/^W\/"[A-Za-z0-9_-]{43}"$/);
  expect(etag).toBe(first.headers().etag);
  // The tag names the bytes sent, whether the body was kept or computed.
  expect(etag).toBe(
    `W/"${createHash("sha256")
      .update(await second.body())
      .digest("base64url")}"`,
  );
  const current = await request.get(path, { headers: { ...headers, "If-None-Match": etag } });
  expect(current.status()).toBe(304);
  const audit = await request.get(`/api/v1/audit?subject=${encodeURIComponent(who)}&operation=portfolio`, {
    headers: authHeaders(await admin()),
  });
  const events = ((await audit.json()) as { events: { result_player_ids: string[] }[] }).events;
  const ids = ((await first.json()) as Book).players.map((p) => p.id);
  expect(events).toHaveLength(3);
  for (const event of events) expect(event.result_player_ids).toEqual(ids);
});
