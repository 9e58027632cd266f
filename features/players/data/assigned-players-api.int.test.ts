import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as searchRoute } from "@/app/api/v1/players/route";
import { GET as portfolioRoute } from "@/app/api/v1/portfolio/route";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { issueAccessToken } from "@/platform/auth/access-token";
import { createSession } from "@/platform/auth/session-store";
import { appIssuedTokensForFile } from "@/test/support/in-process-app";
import { stubEnv } from "../../../test/support/env.ts";

/*
 * A VIP manager's own players, through the route handlers with app-issued tokens (AUTH_MODE=jwt): the book
 * (GET /api/v1/portfolio) and the lookup's list (GET /api/v1/players?assigned=me) are the manager that the
 * caller's token SUBJECT maps to (VIP_MANAGER_SUBJECTS), never the manager its display name (`name`, editable at
 * the identity provider) happens to equal. Each read is audited.
 */
appIssuedTokensForFile();
beforeAll(() => stubEnv({ VIP_MANAGER_SUBJECTS: JSON.stringify({ "u-sarah": "Sarah Mitchell" }) }));
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
afterAll(() => sql.end());

type Route = (request: Request, ctx: { params: Promise<Record<string, string>> }) => Promise<Response>;

async function get(
  route: Route,
  path: string,
  who: { subject: string; name?: string; role: "vip_manager" | "support_agent" },
) {
  const { id: sessionId } = await createSession({
    subject: who.subject,
    role: who.role,
    provider: "credentials",
  });
  const { token } = await issueAccessToken({ sessionId, name: who.name });
  return route(
    new Request(`http://localhost/api/v1${path}`, {
      headers: { Authorization: `Bearer ${token}`, "X-Session-ID": sessionId },
    }),
    { params: Promise.resolve({}) },
  );
}

const sarah = { subject: "u-sarah", name: "Sarah Mitchell", role: "vip_manager" as const };
/** Another VIP manager who set their display name to Sarah's at the identity provider. */
const impostor = { subject: "u-mallory", name: "Sarah Mitchell", role: "vip_manager" as const };

async function sarahsPlayers(): Promise<string[]> {
  const { rows } = await sql.query<{ id: string }>(
    "SELECT id FROM players WHERE vip_manager = 'Sarah Mitchell' ORDER BY id LIMIT 100",
  );
  expect(rows.length).toBeGreaterThan(0);
  return rows.map((r) => r.id);
}

describe("GET /api/v1/portfolio: a VIP manager's book by their subject", () => {
  it("the mapped subject reads its book; its own name may be left out or given", async () => {
    const own = await get(portfolioRoute, "/portfolio", sarah);
    expect(own.status).toBe(200);
    const book = await own.json();
    expect(book.manager).toBe("Sarah Mitchell");
    expect(book.players.map((p: { id: string }) => p.id).slice(0, 100)).toEqual(await sarahsPlayers());
    // Renamed at the identity provider, the same person still reads the same book.
    const renamed = await get(portfolioRoute, "/portfolio", { ...sarah, name: "Sarah M." });
    expect((await renamed.json()).manager).toBe("Sarah Mitchell");
  });

  it("a display name equal to a manager's, under another subject, gets no book: 403 naming manager", async () => {
    for (const path of ["/portfolio", "/portfolio?manager=Sarah%20Mitchell"]) {
      const response = await get(portfolioRoute, path, impostor);
      expect(response.status, path).toBe(403);
      const problem = await response.json();
      expect(problem.errors[0].name).toBe("manager");
    }
  });
});

describe("GET /api/v1/players?assigned=me", () => {
  it("lists exactly the players whose vip_manager the caller's subject maps to, and audits the read", async () => {
    const response = await get(searchRoute, "/players?assigned=me&limit=100", sarah);
    expect(response.status).toBe(200);
    const body = await response.json();
    expect(body.players.map((p: { id: string }) => p.id)).toEqual(await sarahsPlayers());
    await getAuditQueue().flush();
    const audit = await sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM audit_events WHERE operation = 'search' AND subject = 'u-sarah'",
    );
    expect(Number(audit.rows[0]?.n)).toBeGreaterThan(0);
  });

  it("a display name equal to a manager's, under another subject, lists nobody's players: 400", async () => {
    const response = await get(searchRoute, "/players?assigned=me", impostor);
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors[0].name).toBe("assigned");
  });

  it("without assigned=me the same manager still searches every player", async () => {
    const body = await (await get(searchRoute, "/players?limit=1", sarah)).json();
    const { rows } = await sql.query<{ n: string }>("SELECT count(*) AS n FROM players");
    expect(body.total).toBe(Number(rows[0]?.n));
  });

  it("a caller who is no manager gets a problem naming the parameter, not every player", async () => {
    const response = await get(searchRoute, "/players?assigned=me", {
      subject: "u-nobody",
      role: "vip_manager",
    });
    expect(response.status).toBe(400);
    const problem = await response.json();
    expect(problem.errors[0].name).toBe("assigned");
  });

  it("rejects other values of assigned", async () => {
    const response = await get(searchRoute, "/players?assigned=everyone", sarah);
    expect(response.status).toBe(400);
  });
});
