import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { type AppRoleDatabase, appRoleDatabase } from "@/test/support/app-role-database";
import { createRouteKit, type RouteKit } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";

/*
 * The product connected as the app role of `npm run db:roles` (docs/configuration.md): every operation's route
 * handler answers, and every read is in the audit trail. PostgreSQL only (PGlite has no roles to speak of).
 */
const postgres = inject("databaseKind") === "postgres";
const P = `/api/v1/players/${FIXTURE_PLAYER_ID}`;
const READS = [
  P,
  `${P}/transactions?limit=5`,
  `${P}/transactions/export?format=csv`,
  `${P}/transaction-facets`,
  `${P}/monthly-activity?to_month=2025-03`,
  `${P}/summary?period=all`,
  `${P}/audit`,
  "/api/v1/players?q=Fixture",
  "/api/v1/audit?limit=5",
];

let db: AppRoleDatabase;
let kit: RouteKit;
let admin: string;
beforeAll(async () => {
  if (!postgres) return;
  db = await appRoleDatabase("app_routes");
  kit = await createRouteKit(db.appUrl);
  admin = await kit.token("admin1", { roles: ["admin"] });
});
afterAll(async () => {
  if (!postgres) return;
  await getAuditQueue().flush();
  await getPrisma().$disconnect();
  await db?.stop();
});

describe.skipIf(!postgres)("the app on its least-privilege role", () => {
  it("serves every operation and records each read in the audit trail", async () => {
    const [row] = await getPrisma().$queryRaw<{ u: string }[]>`SELECT current_user AS u`;
    expect(row?.u).toBe(db.recipe.appRole);
    const requestIds: string[] = [];
    for (const path of READS) {
      const requestId = randomUUID();
      requestIds.push(requestId);
      const res = await kit.call("GET", path, { token: admin, headers: { "x-request-id": requestId } });
      expect(res.status, `${path}: ${res.text.slice(0, 300)}`).toBe(200);
    }
    const audit = new pg.Client({ connectionString: db.adminUrl });
    await audit.connect();
    try {
      const { rows } = await audit.query(
        "SELECT client_request_id FROM audit_events WHERE client_request_id = ANY($1) ORDER BY id",
        [requestIds],
      );
      expect(rows.map((r) => r.client_request_id)).toEqual(requestIds);
    } finally {
      await audit.end();
    }
  });
});
