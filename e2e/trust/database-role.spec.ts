import { expect, test } from "@playwright/test";
import pg from "pg";
import { type AppRoleDatabase, appRoleDatabase } from "../../test/support/app-role-database.ts";
import { appBase, appsStoppedAfterAll, httpGet, postgresTestDatabase, startApp } from "./harness.ts";

/*
 * The production build's start-up check of its database role (platform/runtime/database-role-check.ts): on postgres, a
 * superuser, `npm start` refuses to run unless DB_ALLOW_PRIVILEGED_ROLE=on; on the app role `npm run db:roles`
 * makes, it starts without a warning, serves and audits.
 */
const DATABASE_URL = postgresTestDatabase();
const start = appsStoppedAfterAll();

test("npm start on a superuser's connection refuses to start, saying why and how to allow it", async () => {
  const error = await startApp(appBase + 7, {
    DATABASE_URL,
    AUTH_MODE: "demo",
    DB_ALLOW_PRIVILEGED_ROLE: "off",
  }).catch((e: Error) => e);
  expect(error).toBeInstanceOf(Error);
  const output = (error as Error).message;
  expect(output).toContain("the app exited during start");
  expect(output).toMatch(/"msg":"refusing to start"/);
  expect(output).toContain('"risks":["is a superuser"]');
  expect(output).toContain("DB_ALLOW_PRIVILEGED_ROLE=on");
});

test.describe("on the app role of npm run db:roles", () => {
  let db: AppRoleDatabase;
  test.beforeAll(async () => {
    db = await appRoleDatabase("e2e_app_role");
  });
  test.afterAll(async () => {
    await db?.stop();
  });

  test("npm start starts without a warning about its role, serves a profile and audits the read", async () => {
    const app = await start(appBase + 13, {
      DATABASE_URL: db.appUrl,
      AUTH_MODE: "demo",
      DB_ALLOW_PRIVILEGED_ROLE: "off",
    });
    const res = await httpGet(`${app.url}/api/v1/players/PTEST0001`, {
      authorization: "Bearer demo-token",
      "x-session-id": "app-role-spec",
      "x-request-id": "app-role-spec-read",
    });
    expect(res).toMatchObject({ status: 200 });
    expect(app.output()).not.toContain("database role");
    await app.stop();
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "SELECT operation, player_id FROM audit_events WHERE client_request_id = 'app-role-spec-read'",
      );
      expect(rows).toEqual([{ operation: "profile", player_id: "PTEST0001" }]);
    } finally {
      await admin.end();
    }
  });
});
