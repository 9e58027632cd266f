import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { type AppRoleDatabase, appRoleDatabase } from "@/test/support/app-role-database";
import { createRouteKit, kitToken } from "@/test/support/route-test-kit";

/*
 * GET /api/v1/webhook-events on the app's least-privilege role (`npm run db:roles`): it answers without reading
 * the endpoints' secrets, which that role may not read (platform/db/app-table-writes.ts). PostgreSQL only.
 */
const postgres = inject("databaseKind") === "postgres";
const ENDPOINT = "we_00000000-0000-4000-8000-00000000e101";

let db: AppRoleDatabase;
type Route = { GET: (request: Request, context: { params: Promise<object> }) => Promise<Response> };

beforeAll(async () => {
  if (!postgres) return;
  db = await appRoleDatabase("webhook_events_role");
  await createRouteKit(db.appUrl);
  const owner = new pg.Client({ connectionString: db.adminUrl });
  await owner.connect();
  try {
    await owner.query(
      `INSERT INTO webhook_endpoints (id, url, secret, event_types, previous_secret, previous_secret_expires_at)
       VALUES ($1, 'https://crm.example.com/in', 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw', '{player.created}',
         'whsec_AAAA9r8GKYqrTwjUPD8ILPZIo2LaLaSw', now() + interval '1 hour')`,
      [ENDPOINT],
    );
    await owner.query(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, payload)
       VALUES ('00000000-0000-3000-8000-000000000101', $1, 'player.created', '{"data":{"player_id":"PWHR1"}}')`,
      [ENDPOINT],
    );
  } finally {
    await owner.end();
  }
});

afterAll(async () => {
  if (!postgres) return;
  await getAuditQueue().flush();
  await getPrisma().$disconnect();
  await db?.stop();
});

describe.skipIf(!postgres)("GET /api/v1/webhook-events on the app role", () => {
  it("answers from the columns the role may read", async () => {
    const route = (await import("@/app/api/v1/webhook-events/route")) as unknown as Route;
    const token = await kitToken("receiver-crm", { scope: "players:read webhooks:read" });
    const res = await route.GET(
      new Request("http://localhost/api/v1/webhook-events", {
        headers: { authorization: `Bearer ${token}`, "x-session-id": "webhook-events-role" },
      }),
      { params: Promise.resolve({}) },
    );
    const text = await res.text();
    expect(res.status, text.slice(0, 300)).toBe(200);
    const page = JSON.parse(text) as { events: { endpoint_id: string; body: string }[] };
    expect(page.events.map((e) => e.endpoint_id)).toEqual([ENDPOINT]);
    expect(text).not.toContain("whsec_");
  });
});
