import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";

const kit = routeKitForFile();
const agent = await kitToken("agent7", { roles: ["support_agent"] });
const vip = await kitToken("vip3", { roles: ["vip_manager"] });
const admin = await kitToken("admin1", { roles: ["admin"] });

describe("least privilege in the API response itself", () => {
  it("masks e-mail and phone for callers without players:pii", async () => {
    const masked = await kit.call("GET", "/api/v1/players/PTEST0001", { token: agent });
    expect(masked.status).toBe(200);
    expect(masked.json).toMatchObject({ email: "f***@example.com", phone: "+44 ••• ••• 01" });
    expect(masked.text).not.toContain("fixture.player@example.com");
    expect(kit.validate("/players/{playerId}", masked.json)).toEqual([]);

    for (const token of [vip, admin, "any-demo-token"]) {
      const full = await kit.call("GET", "/api/v1/players/PTEST0001", { token });
      expect(full.json).toMatchObject({ email: "fixture.player@example.com", phone: "+44 7000000001" });
    }
  });

  it("neither shows nor searches e-mail addresses without players:pii", async () => {
    const byEmail = "/api/v1/players?q=fixture.player%40example";
    expect((await kit.call("GET", byEmail, { token: vip })).json).toMatchObject({ total: 1 });
    expect((await kit.call("GET", byEmail, { token: agent })).json).toMatchObject({ total: 0, players: [] });
    const byName = await kit.call("GET", "/api/v1/players?q=Fixture%20Player", { token: agent });
    expect(byName.json).toMatchObject({
      total: 1,
      players: [{ id: "PTEST0001", email: "f***@example.com" }],
    });
    expect(kit.validate("/players", byName.json)).toEqual([]);
  });

  it("needs audit:read for the audit trail: admins only", async () => {
    for (const token of [agent, vip, "any-demo-token"]) {
      const res = await kit.call("GET", "/api/v1/players/PTEST0001/audit", { token });
      expect(res.status).toBe(403);
      expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    }
    expect((await kit.call("GET", "/api/v1/players/PTEST0001/audit", { token: admin })).status).toBe(200);
  });
});

describe("accountability through the routes", () => {
  it("records every successful profile, transaction list and search read, and lists them for admins", async () => {
    const session = `trail-${randomUUID()}`;
    const headers = { "x-session-id": session };
    await kit.call("GET", "/api/v1/players/P000197", { token: agent, headers });
    await kit.call("GET", "/api/v1/players/P000197/transactions?event_type=bet&event_type=win&limit=3", {
      token: agent,
      headers,
    });
    await kit.call("GET", "/api/v1/players?q=P000197", { token: agent, headers });
    await kit.call("GET", "/api/v1/players/P000197/transactions?limit=0", { token: agent, headers }); // 400
    await kit.call("GET", "/api/v1/players/NOPE/transactions", { token: agent, headers }); // 404
    await getAuditQueue().flush();

    const page = await kit.call("GET", "/api/v1/players/P000197/audit?limit=10", { token: admin });
    expect(page.status).toBe(200);
    expect(kit.validate("/players/{playerId}/audit", page.json)).toEqual([]);
    const events = (page.json as { events: { session_id: string }[] }).events.filter(
      (e) => e.session_id === session,
    );
    expect(events).toMatchObject([
      { operation: "search", player_id: null, result_player_ids: ["P000197"], filters: { q: "P000197" } },
      {
        operation: "transactions",
        player_id: "P000197",
        filters: { event_type: ["bet", "win"], limit: "3" },
        subject: "agent7",
        scopes: ["players:read"],
      },
      { operation: "profile", player_id: "P000197", subject: "agent7", auth_mode: "demo" },
    ]);
  });

  it("records reads of the trail itself and pages it with a cursor", async () => {
    await kit.call("GET", "/api/v1/players/P000196/audit", { token: admin });
    await kit.call("GET", "/api/v1/players/P000196/audit", { token: admin });
    await kit.call("GET", "/api/v1/players/P000196/audit", { token: admin });
    await getAuditQueue().flush();
    const first = await kit.call("GET", "/api/v1/players/P000196/audit?limit=2&operation=audit_trail", {
      token: admin,
    });
    const body = first.json as {
      events: unknown[];
      next_cursor: string | null;
      has_more: boolean;
      total: number;
    };
    expect(body).toMatchObject({ total: 3, has_more: true });
    expect(body.events).toHaveLength(2);
    const rest = await kit.call(
      "GET",
      `/api/v1/players/P000196/audit?limit=2&operation=audit_trail&cursor=${body.next_cursor}`,
      { token: admin },
    );
    expect(rest.json).toMatchObject({ has_more: false, next_cursor: null });
    expect((rest.json as { events: unknown[] }).events).toHaveLength(1);
  });

  it("answers 404 for an unknown player and 400 for a bad cursor or parameter", async () => {
    expect((await kit.call("GET", "/api/v1/players/NOPE/audit", { token: admin })).status).toBe(404);
    for (const q of ["cursor=abc", "cursor=0", "limit=101", "operation=delete", "since=yesterday"]) {
      const res = await kit.call("GET", `/api/v1/players/PTEST0001/audit?${q}`, { token: admin });
      expect(res.status, q).toBe(400);
    }
  });
});

describe("the audit record of a read whose token carries text the database cannot store", () => {
  it("is written with that text replaced, and says so, before the answer", async () => {
    const session = `lone-surrogate-${randomUUID()}`;
    // JSON (and so a JWT) can carry unpaired UTF-16 surrogates; PostgreSQL text cannot hold them.
    const token = await kit.token("agent\uD800x", {
      roles: ["support_agent"],
      name: "Zo\uDC00e \u0000Cote",
      preferred_username: "\uDBFF",
    });
    const read = await kit.call("GET", "/api/v1/players/PTEST0001", {
      token,
      headers: { "x-session-id": session },
    });
    expect(read.status).toBe(200);
    const rows = await getPrisma().auditEvent.findMany({ where: { sessionId: session } });
    expect(rows).toMatchObject([
      {
        subject: "agent\uFFFDx",
        subjectName: "Zo\uFFFDe \uFFFDCote",
        textReplaced: true,
        requestId: read.headers.get("x-request-id"),
      },
    ]);
  });
});
