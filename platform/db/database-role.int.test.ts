import { Writable } from "node:stream";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, inject, it, vi } from "vitest";
import { createLogger } from "@/platform/log/log";
import {
  checkDatabaseRoleAtStart,
  PRIVILEGED_ROLE_REFUSAL,
  PRIVILEGED_ROLE_WARNING,
  ROLE_UNCHECKED_WARNING,
  type RoleCheckOptions,
} from "@/platform/runtime/database-role-check";
import { applyRolesRecipe } from "@/scripts/db-roles-recipe";
import { type AppRoleDatabase, appRoleDatabase } from "@/test/support/app-role-database";
import { createPrismaClient } from "./client.ts";
import { inspectDatabaseRole } from "./database-role.ts";
import type { PrismaClient } from "./generated/client.ts";

/*
 * The start-up check of the database role, on the real server: the shared test database's connection (postgres,
 * a superuser; or the embedded PGlite), and the roles `npm run db:roles` makes in a database of their own.
 */
const kind = inject("databaseKind");
const postgres = kind === "postgres";
const g = globalThis as unknown as { parLogger?: unknown };
const logLines: { level: string; msg: string; risks?: string[]; reason?: string }[] = [];

let db: AppRoleDatabase;
const clients: PrismaClient[] = [];
const clientFor = (url: string) => {
  const client = createPrismaClient(url, 1);
  clients.push(client);
  return client;
};
const inspectAs = (url: string) => inspectDatabaseRole(clientFor(url));
/** A superuser group role (cluster-wide: named after this run). */
const SUPER = `${process.env.TEST_DB_PREFIX ?? "par"}_super_${process.pid}`;

beforeAll(async () => {
  g.parLogger = createLogger(
    new Writable({
      write(chunk, _e, done) {
        logLines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
    "debug",
  );
  if (postgres) db = await appRoleDatabase("role_check");
});
afterEach(() => {
  logLines.length = 0;
});
afterAll(async () => {
  g.parLogger = undefined;
  await Promise.all(clients.map((c) => c.$disconnect()));
  await db?.stop();
});

async function asAdmin(statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: db.adminUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

describe("inspecting the connection's role", () => {
  it(`the shared test database's connection (${kind}) is ${postgres ? "a superuser" : "the embedded database"}`, async () => {
    const role = await inspectAs(inject("databaseUrl"));
    expect(role).toEqual(
      postgres
        ? { name: "postgres", embedded: false, risks: ["is a superuser"] }
        : { name: "postgres", embedded: true, risks: [] },
    );
  });

  it.skipIf(!postgres)("the app role of db:roles has none; the owner's are named", async () => {
    expect(await inspectAs(db.appUrl)).toEqual({ name: db.recipe.appRole, embedded: false, risks: [] });
    const owner = await inspectAs(db.ownerUrl);
    expect(owner.risks).toEqual([
      "owns audit_events (may turn its append-only triggers off)",
      "owns the schema of audit_events (may drop or replace the table)",
      "holds DELETE, TRIGGER, TRUNCATE, UPDATE on audit_events",
      expect.stringMatching(/^may write beyond the app's needs: .*players INSERT.*transactions UPDATE/),
    ]);
  });

  it.skipIf(!postgres)(
    "finds rights that come through grants and memberships; db:roles takes them back",
    async () => {
      const app = db.recipe.appRole;
      try {
        await asAdmin(`GRANT UPDATE ON audit_events TO "${app}"`);
        await asAdmin(`GRANT pg_write_all_data TO "${app}"`);
        await asAdmin(`ALTER ROLE "${app}" CREATEROLE`);
        expect((await inspectAs(db.appUrl)).risks).toEqual([
          "may create roles (and so grant itself the owner's)",
          "holds DELETE, UPDATE on audit_events",
          expect.stringMatching(/^may write beyond the app's needs: .*players DELETE/),
        ]);
        await asAdmin(`GRANT "${db.recipe.ownerRole}" TO "${app}"`);
        expect((await inspectAs(db.appUrl)).risks).toContain(
          "owns audit_events (may turn its append-only triggers off)",
        );
        await asAdmin(`CREATE ROLE "${SUPER}" SUPERUSER NOLOGIN`);
        await asAdmin(`GRANT "${SUPER}" TO "${app}"`);
        expect((await inspectAs(db.appUrl)).risks).toEqual([`can act as the superuser "${SUPER}"`]);
      } finally {
        await applyRolesRecipe(db.adminUrl, db.recipe);
        await asAdmin(`DROP ROLE IF EXISTS "${SUPER}"`);
      }
      expect((await inspectAs(db.appUrl)).risks).toEqual([]);
    },
  );
});

describe.skipIf(!postgres)("the check at start", () => {
  const options = (url: string, more: Partial<RoleCheckOptions> = {}) => {
    const refuse = vi.fn();
    return {
      refuse,
      options: { production: true, allowPrivileged: false, refuse, inspect: () => inspectAs(url), ...more },
    };
  };
  const levels = () => logLines.filter((l) => l.level !== "debug").map((l) => [l.level, l.msg]);

  it("next start on a superuser refuses, saying why and how to allow it", async () => {
    const { refuse, options: o } = options(db.adminUrl);
    expect(await checkDatabaseRoleAtStart(o)).toBe("refused");
    expect(refuse).toHaveBeenCalledOnce();
    expect(levels()).toEqual([["error", "refusing to start"]]);
    expect(logLines[0]).toMatchObject({ risks: ["is a superuser"], reason: PRIVILEGED_ROLE_REFUSAL });
  });

  it("warns once on a superuser in next dev, or with DB_ALLOW_PRIVILEGED_ROLE=on", async () => {
    for (const more of [{ production: false }, { allowPrivileged: true }]) {
      logLines.length = 0;
      const { refuse, options: o } = options(db.adminUrl, more);
      expect(await checkDatabaseRoleAtStart(o)).toBe("warned");
      expect(refuse).not.toHaveBeenCalled();
      expect(levels()).toEqual([["warn", PRIVILEGED_ROLE_WARNING]]);
    }
  });

  it("the app role starts without a word", async () => {
    const { refuse, options: o } = options(db.appUrl);
    expect(await checkDatabaseRoleAtStart(o)).toBe("least-privilege");
    expect(refuse).not.toHaveBeenCalled();
    expect(levels()).toEqual([]);
  });

  it("a database down at start holds nothing up; once it answers, a superuser still stops the server", async () => {
    const down = "postgresql://postgres@127.0.0.1:1/nothing";
    let calls = 0;
    const { refuse, options: o } = options(db.adminUrl, {
      inspect: () => inspectAs(calls++ < 2 ? down : db.adminUrl),
      retryMs: 50,
    });
    expect(await checkDatabaseRoleAtStart(o)).toBe("unchecked");
    expect(levels()).toEqual([["warn", ROLE_UNCHECKED_WARNING]]);
    await vi.waitFor(() => expect(refuse).toHaveBeenCalledOnce(), { timeout: 10_000 });
    expect(levels()).toEqual([
      ["warn", ROLE_UNCHECKED_WARNING],
      ["error", "refusing to start"],
    ]);
  });
});
