import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";

/* GET /players?ids=…: full profiles in one request, masked by scope, one audit row per player returned. */

const kit = routeKitForFile();
const agent = await kitToken("agent-batch", { roles: ["support_agent"] });
const vip = await kitToken("vip-batch", { roles: ["vip_manager"] });

interface Batch {
  players: { id: string; email: string | null }[];
  missing: string[];
}

async function profileRows(session: string): Promise<{ operation: string; player_id: string }[]> {
  await getAuditQueue().flush();
  return getPrisma()
    .$queryRaw`SELECT operation::text, player_id FROM audit_events WHERE session_id = ${session} ORDER BY player_id`;
}

describe("batch reads", () => {
  it("answers each profile as GET /players/{id} does, in the order named, with the unknown ids apart", async () => {
    const res = await kit.call("GET", "/api/v1/players?ids=PTEST0002,NOPE1,PTEST0001,PTEST0002", {
      token: vip,
    });
    expect(res.status, res.text).toBe(200);
    expect(kit.validate("/players", res.json)).toEqual([]);
    const body = res.json as Batch;
    expect(body.players.map((p) => p.id)).toEqual(["PTEST0002", "PTEST0001"]);
    expect(body.missing).toEqual(["NOPE1"]);
    const single = await kit.call("GET", "/api/v1/players/PTEST0001", { token: vip });
    expect(body.players[1]).toEqual(single.json);
  });

  it("masks contact data without players:pii, as the single read does", async () => {
    const masked = await kit.call("GET", "/api/v1/players?ids=PTEST0001", { token: agent });
    expect((masked.json as Batch).players[0]).toMatchObject({
      email: "f***@example.com",
      phone: "+44 ••• ••• 01",
    });
    expect(masked.text).not.toContain("fixture.player@example.com");
    const single = await kit.call("GET", "/api/v1/players/PTEST0001", { token: agent });
    expect((masked.json as Batch).players[0]).toEqual(single.json);
    const full = await kit.call("GET", "/api/v1/players?ids=PTEST0001", { token: vip });
    expect((full.json as Batch).players[0]?.email).toBe("fixture.player@example.com");
  });

  it("records one profile row per player returned, none for a missing id", async () => {
    const session = `batch-${randomUUID()}`;
    const ids = "P000010,P000011,NOPE2,P000012,P000011";
    const res = await kit.call("GET", `/api/v1/players?ids=${ids}`, {
      token: agent,
      headers: { "x-session-id": session },
    });
    expect(res.status).toBe(200);
    expect(await profileRows(session)).toEqual([
      { operation: "profile", player_id: "P000010" },
      { operation: "profile", player_id: "P000011" },
      { operation: "profile", player_id: "P000012" },
    ]);
  });

  it("takes 100 distinct ids (duplicates count once) and refuses 101, naming ids", async () => {
    const hundred = Array.from({ length: 100 }, (_, i) => `P${String(i + 1).padStart(6, "0")}`);
    const ok = await kit.call("GET", `/api/v1/players?ids=${[...hundred, ...hundred].join(",")}`, {
      token: agent,
    });
    expect(ok.status).toBe(200);
    expect((ok.json as Batch).players.length + (ok.json as Batch).missing.length).toBe(100);
    const over = await kit.call("GET", `/api/v1/players?ids=${[...hundred, "P000101"].join(",")}`, {
      token: agent,
    });
    expect(over.status).toBe(400);
    expect(over.contentType).toContain("application/problem+json");
    expect(over.json).toMatchObject({ errors: [{ name: "ids", in: "query" }] });
  });

  it("answers a problem naming the parameter for bad ids and for ids beside a search", async () => {
    for (const query of ["ids=", "ids=P1,,P2", `ids=${"x".repeat(65)}`, "ids=P1%00"]) {
      const res = await kit.call("GET", `/api/v1/players?${query}`, { token: agent });
      expect(res.status, query).toBe(400);
      expect((res.json as { errors: { name: string }[] }).errors[0]?.name, query).toBe("ids");
    }
    const mixed = await kit.call("GET", "/api/v1/players?ids=P000001&q=Fixture&limit=5", { token: agent });
    expect(mixed.status).toBe(400);
    expect((mixed.json as { errors: { name: string }[] }).errors.map((e) => e.name)).toEqual(["q", "limit"]);
    expect((mixed.json as { detail: string }).detail).toContain("'q'");
  });
});
