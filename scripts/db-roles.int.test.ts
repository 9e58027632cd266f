import { execFile } from "node:child_process";
import { promisify } from "node:util";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { recordAuditEvents } from "@/platform/audit/record-audit-events";
import { createPrismaClient } from "@/platform/db/client";
import { applyMigrations } from "@/platform/db/schema-engine";
import { type AppRoleDatabase, appRoleDatabase } from "@/test/support/app-role-database";
import { applyRolesRecipe, scramVerifier } from "./db-roles-recipe.ts";

/*
 * The least-privilege recipe (`npm run db:roles`) on the real PostgreSQL server, in a database of its own: the
 * app role reads and appends audit records and can do nothing else; the owner migrates; running it again changes
 * nothing. PGlite has no roles to speak of (one local user), so this runs against PostgreSQL only.
 */
const postgres = inject("databaseKind") === "postgres";
/** Each read-model table with an assignment that names one of its columns (analysed before rights are checked). */
const READ_MODEL: Record<string, string> = {
  players: "name = name",
  transactions: "event_note = event_note",
  transaction_daily_stats: "n = n",
};

let db: AppRoleDatabase;
let app: pg.Client;

async function sql(url: string, text: string, values: unknown[] = []): Promise<pg.QueryResult> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return await client.query(text, values);
  } finally {
    await client.end();
  }
}

/** The error a statement of the app role meets: SQLSTATE and message. */
async function refusal(statement: string): Promise<{ code?: string; message: string }> {
  const error = await app.query(statement).then(
    () => new Error(`succeeded: ${statement}`),
    (e: unknown) => e as Error & { code?: string },
  );
  return { code: (error as { code?: string }).code, message: error.message };
}

beforeAll(async () => {
  if (!postgres) return;
  db = await appRoleDatabase("roles");
  app = new pg.Client({ connectionString: db.appUrl });
  await app.connect();
});
afterAll(async () => {
  await app?.end();
  await db?.stop();
});

describe.skipIf(!postgres)("db:roles: the app role", () => {
  it("(the attack) as postgres, the documented setup before db:roles, the app's connection could turn the triggers off", async () => {
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      await admin.query("BEGIN");
      await admin.query("ALTER TABLE audit_events DISABLE TRIGGER ALL");
      expect((await admin.query("DELETE FROM audit_events")).command).toBe("DELETE");
    } finally {
      await admin.query("ROLLBACK");
      await admin.end();
    }
  });

  it("connects as itself and reads the read model and the audit trail", async () => {
    expect((await app.query("SELECT current_user AS u")).rows[0]?.u).toBe(db.recipe.appRole);
    for (const table of [...Object.keys(READ_MODEL), "audit_events"]) {
      const { rows } = await app.query(`SELECT count(*)::int AS n FROM ${table}`);
      expect(rows[0]?.n, table).toBeGreaterThanOrEqual(0);
    }
    const { rows } = await app.query("SELECT name FROM players WHERE id = 'PTEST0001'");
    expect(rows).toEqual([{ name: "Fixture Player" }]);
  });

  it("appends audit records through the app's own write path", async () => {
    const client = createPrismaClient(db.appUrl, 1);
    try {
      await recordAuditEvents(
        [
          {
            occurredAt: new Date(),
            subject: "roles-test",
            authMode: "jwt",
            scopes: ["players:read"],
            sessionId: "s",
            operation: "profile",
            playerId: "PTEST0001",
            resultPlayerIds: [],
            filters: {},
            requestId: "roles-test-request",
            clientAddress: null,
          },
        ],
        { db: client },
      );
    } finally {
      await client.$disconnect();
    }
    const { rows } = await app.query(
      "SELECT subject FROM audit_events WHERE request_id = 'roles-test-request'",
    );
    expect(rows).toEqual([{ subject: "roles-test" }]);
  });

  it("cannot backdate an audit record: the database gives each row the time of its INSERT", async () => {
    const { rows } = await app.query(
      `INSERT INTO audit_events (occurred_at, subject, auth_mode, session_id, operation, request_id)
       VALUES (now() - interval '10 days', 'backdater', 'jwt', 's', 'profile', 'roles-backdated')
       RETURNING occurred_at = statement_timestamp()::timestamptz(3) AS stamped,
                 extract(epoch FROM statement_timestamp() - occurred_at)::float8 AS behind_seconds`,
    );
    expect(rows).toEqual([{ stamped: true, behind_seconds: expect.any(Number) }]);
    expect(Math.abs(rows[0]?.behind_seconds)).toBeLessThan(0.001);
    // The app's own write path, with a time far in the past and one in the future: both stored as written now.
    const client = createPrismaClient(db.appUrl, 1);
    try {
      const { rows: clock } = await app.query("SELECT now() AS t");
      const before = clock[0]?.t as Date;
      const record = (requestId: string, occurredAt: Date) => ({
        occurredAt,
        subject: "roles-test",
        authMode: "jwt" as const,
        scopes: [],
        sessionId: "s",
        operation: "profile" as const,
        playerId: "PTEST0001",
        resultPlayerIds: [],
        filters: {},
        requestId,
        clientAddress: null,
      });
      await recordAuditEvents(
        [
          record("roles-past", new Date("2020-01-01T00:00:00Z")),
          record("roles-future", new Date("2099-01-01Z")),
        ],
        { db: client },
      );
      const { rows: stored } = await app.query(
        "SELECT occurred_at, now() AS t FROM audit_events WHERE request_id IN ('roles-past', 'roles-future')",
      );
      expect(stored).toHaveLength(2);
      for (const row of stored) {
        expect(row.occurred_at.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
        expect(row.occurred_at.getTime()).toBeLessThanOrEqual(row.t.getTime() + 1);
      }
    } finally {
      await client.$disconnect();
    }
  });

  it("cannot update, delete or truncate audit records: permission denied before any trigger runs", async () => {
    for (const statement of [
      "UPDATE audit_events SET subject = 'x'",
      "DELETE FROM audit_events",
      "TRUNCATE audit_events",
    ]) {
      const error = await refusal(statement);
      expect(error.code, statement).toBe("42501");
      expect(error.message, statement).toMatch(/permission denied for table audit_events/);
    }
  });

  it("cannot turn the append-only triggers off, drop them, add one, or skip triggers for its session", async () => {
    for (const statement of [
      "ALTER TABLE audit_events DISABLE TRIGGER ALL",
      "ALTER TABLE audit_events DISABLE TRIGGER audit_events_no_update_delete",
      "DROP TRIGGER audit_events_no_truncate ON audit_events",
      "DROP TABLE audit_events",
      "CREATE TRIGGER t BEFORE INSERT ON audit_events FOR EACH ROW EXECUTE FUNCTION audit_events_reject_change()",
      "SET session_replication_role = replica",
    ]) {
      const error = await refusal(statement);
      expect(error.code, statement).toBe("42501");
      expect(error.message, statement).toMatch(/must be owner|permission denied/);
    }
  });

  it("cannot write the read model, create objects, or act as the owner", async () => {
    for (const [table, assignment] of Object.entries(READ_MODEL)) {
      for (const statement of [
        `INSERT INTO ${table} SELECT * FROM ${table} LIMIT 1`,
        `UPDATE ${table} SET ${assignment}`,
        `DELETE FROM ${table}`,
        `TRUNCATE ${table}`,
      ]) {
        const error = await refusal(statement);
        expect(error.code, statement).toBe("42501");
        expect(error.message, statement).toMatch(new RegExp(`permission denied for table ${table}`));
      }
    }
    for (const statement of [
      "CREATE TABLE players_copy (id text)",
      "CREATE TEMP TABLE scratch (id text)",
      `SET ROLE "${db.recipe.ownerRole}"`,
      "UPDATE _prisma_migrations SET logs = 'x'",
    ]) {
      expect((await refusal(statement)).code, statement).toBe("42501");
    }
  });
});

describe.skipIf(!postgres)("db:roles: the owner and the recipe itself", () => {
  it("migrations run as the owner; again, they apply nothing", async () => {
    expect(await applyMigrations(db.ownerUrl)).toEqual([]);
    const { rows } = await sql(
      db.adminUrl,
      `SELECT DISTINCT pg_get_userbyid(relowner) AS owner FROM pg_class
       WHERE relnamespace = 'public'::regnamespace AND relkind IN ('r', 'S')`,
    );
    expect(rows).toEqual([{ owner: db.recipe.ownerRole }]);
    // db:import stages its lines in temporary tables.
    expect((await sql(db.ownerUrl, "CREATE TEMP TABLE stage (id text)")).command).toBe("CREATE");
  });

  it("cannot read the webhook endpoints' signing secrets, current or previous; reads the rest", async () => {
    const { rows } = await app.query("SELECT id, url, event_types, active FROM webhook_endpoints");
    expect(rows).toEqual([]);
    for (const column of ["secret", "previous_secret"]) {
      const error = await app.query(`SELECT ${column} FROM webhook_endpoints`).then(
        () => ({ code: "none" }),
        (e: { code: string }) => e,
      );
      expect(error.code, column).toBe("42501");
    }
    // What GET /webhook-events reads (features/webhook-events/data/list-webhook-events.ts) is readable.
    await app.query("SELECT id, url, failing_since FROM webhook_endpoints");
    await app.query("SELECT id, payload, status FROM webhook_deliveries");
    await app.query("SELECT delivery_id, status_code FROM webhook_attempts");
  });

  it("running the recipe again changes no right", async () => {
    const rights = () =>
      sql(
        db.adminUrl,
        `SELECT c.relname, c.relacl::text, n.nspacl::text AS schema_acl,
           (SELECT datacl::text FROM pg_database WHERE datname = current_database()) AS database_acl
         FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
         WHERE n.nspname = 'public' ORDER BY c.relname`,
      ).then((r) => r.rows);
    const before = await rights();
    expect(await applyRolesRecipe(db.adminUrl, db.recipe)).toEqual([]);
    expect(await rights()).toEqual(before);
  });

  it("sends passwords as SCRAM verifiers, computed as PostgreSQL computes them", async () => {
    const admin = new pg.Client({ connectionString: db.adminUrl });
    await admin.connect();
    try {
      // PostgreSQL hashes a password of its own choosing; the script's function, given its salt, must agree.
      const plain = "a-password-postgres-hashes-itself";
      await admin.query("SET password_encryption = 'scram-sha-256'");
      await admin.query(`ALTER ROLE "${db.recipe.appRole}" PASSWORD '${plain}'`);
      const { rows } = await admin.query("SELECT rolpassword FROM pg_authid WHERE rolname = $1", [
        db.recipe.appRole,
      ]);
      const stored = String(rows[0]?.rolpassword);
      const [, iterations, salt] = /^SCRAM-SHA-256\$(\d+):([^$]+)\$/.exec(stored) ?? [];
      expect(scramVerifier(plain, Buffer.from(salt ?? "", "base64"), Number(iterations))).toBe(stored);
    } finally {
      await admin.end();
    }
    // The recipe sets the password it was given again (never in clear: only the verifier is sent).
    await applyRolesRecipe(db.adminUrl, db.recipe);
  });

  it("npm run db:roles runs the recipe from the environment, and refuses without DATABASE_ADMIN_URL", async () => {
    const run = (env: Record<string, string>) => {
      const childEnv: Record<string, string> = { PATH: process.env.PATH ?? "", ...env };
      return promisify(execFile)(process.execPath, ["--import", "tsx", "scripts/db-roles.ts"], {
        env: childEnv as NodeJS.ProcessEnv,
      }).then(
        (r) => ({ code: 0, out: r.stdout + r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout + e.stderr }),
      );
    };
    const ok = await run({
      DATABASE_ADMIN_URL: db.adminUrl,
      DB_OWNER_ROLE: db.recipe.ownerRole,
      DB_APP_ROLE: db.recipe.appRole,
    });
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`the app connects as "${db.recipe.appRole}"`);
    const refused = await run({ DB_OWNER_ROLE: db.recipe.ownerRole });
    expect(refused.code).toBe(2);
    expect(refused.out).toMatch(/DATABASE_ADMIN_URL: is required/);
  });

  it("refuses to run as anyone but a superuser, naming why", async () => {
    const error = await applyRolesRecipe(db.ownerUrl, db.recipe).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).message).toMatch(/must run as a superuser/);
  });
});

describe.skipIf(!postgres)("db:roles on a database migrated as postgres (the setup before it)", () => {
  let legacy: AppRoleDatabase;
  beforeAll(async () => {
    legacy = await appRoleDatabase("roles_legacy", { legacy: true });
  });
  afterAll(async () => {
    await legacy?.stop();
  });

  it("gives every table, sequence, type and function to the owner, and the app the same narrow rights", async () => {
    // An extension's own objects (pg_trgm's and unaccent's functions and types) stay with whoever created the
    // extension: PostgreSQL has no ALTER EXTENSION … OWNER, and the recipe leaves them alone on purpose (an array
    // type goes with its element type: gtrgm[] with pg_trgm's gtrgm).
    const own = (catalog: string, oids = "x.oid") =>
      `NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid IN (${oids}) AND d.deptype = 'e')`;
    const { rows } = await sql(
      legacy.adminUrl,
      `SELECT DISTINCT pg_get_userbyid(owner) AS owner FROM (
         SELECT relowner AS owner FROM pg_class x WHERE relnamespace = 'public'::regnamespace AND ${own("pg_class")}
         UNION ALL SELECT typowner FROM pg_type x WHERE typnamespace = 'public'::regnamespace AND ${own("pg_type", "x.oid, x.typelem")}
         UNION ALL SELECT proowner FROM pg_proc x WHERE pronamespace = 'public'::regnamespace AND ${own("pg_proc")}
         UNION ALL SELECT nspowner FROM pg_namespace WHERE nspname = 'public') o`,
    );
    expect(rows).toEqual([{ owner: legacy.recipe.ownerRole }]);
    const client = new pg.Client({ connectionString: legacy.appUrl });
    await client.connect();
    try {
      await client.query(
        `INSERT INTO audit_events (occurred_at, subject, auth_mode, session_id, operation, request_id)
         VALUES (now(), 'legacy', 'jwt', 's', 'profile', 'legacy-request')`,
      );
      const error = await client.query("ALTER TABLE audit_events DISABLE TRIGGER ALL").catch((e: Error) => e);
      expect((error as { code?: string }).code).toBe("42501");
    } finally {
      await client.end();
    }
  });
});
