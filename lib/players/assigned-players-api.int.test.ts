import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { GET as searchRoute } from "@/app/api/v1/players/route";
import { getAuditQueue } from "@/lib/audit/audit-recorder";
import { issueAccessToken } from "@/lib/auth/access-token";
import { createSession } from "@/lib/auth/session-store";
import { appIssuedTokensForFile } from "@/test/support/in-process-app";

/*
 * GET /api/v1/players?assigned=me through the route handler with app-issued tokens (AUTH_MODE=jwt): the
 * caller's `name` claim picks the players whose vip_manager they are, and the read is audited like a search.
 */
appIssuedTokensForFile();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
afterAll(() => sql.end());

async function get(query: string, who: { name?: string; role: "vip_manager" | "support_agent" }) {
  const { id: sessionId } = await createSession({
    subject: `u-${who.role}`,
    role: who.role,
    provider: "credentials",
  });
  const { token } = await issueAccessToken({ sessionId, name: who.name });
  return searchRoute(
    new Request(`http://localhost/api/v1/players${query}`, {
      headers: { Authorization: `Bearer ${token}`, "X-Session-ID": sessionId },
    }),
    { params: Promise.resolve({}) },
  );
}

describe("GET /api/v1/players?assigned=me", () => {
  it("lists exactly the players whose vip_manager is the signed-in manager, and audits the read", async () => {
    const { rows } = await sql.query<{ id: string }>(
      "SELECT id FROM players WHERE vip_manager = 'Sarah Mitchell' ORDER BY id LIMIT 100",
    );
    expect(rows.length).toBeGreaterThan(0);
    const response = await get("?assigned=me&limit=100", { name: "Sarah Mitchell", role: "vip_manager" });
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.players.map((p: { id: string }) => p.id)).toEqual(rows.map((r) => r.id));
    await getAuditQueue().flush();
    const audit = await sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM audit_events WHERE operation = 'search' AND subject = 'u-vip_manager'",
    );
    expect(Number(audit.rows[0]?.n)).toBeGreaterThan(0);
  });

  it("without assigned=me the same manager still searches every player", async () => {
    const body = await (await get("?limit=1", { name: "Sarah Mitchell", role: "vip_manager" })).json();
    const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM players");
    expect(body.total).toBe(Number(rows[0]?.n));
  });

  it("a caller whose token names nobody gets a problem naming the parameter, not every player", async () => {
    const response = await get("?assigned=me", { role: "vip_manager" });
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors[0].name).toBe("assigned");
  });

  it("rejects other values of assigned", async () => {
    const response = await get("?assigned=everyone", { name: "Sarah Mitchell", role: "vip_manager" });
    expect(response.status).toBe(400);
  });
});
