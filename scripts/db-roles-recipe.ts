/*
 * The least-privilege recipe behind `npm run db:roles` (docs/configuration.md): an owner role that owns the schema
 * and runs migrations, seeds and imports, and an app role that reads every table and writes only what
 * platform/db/app-table-writes.ts lists. One idempotent SQL script, run as a superuser on the app's database; printed
 * by `npm run db:roles -- --print` for whoever prefers psql.
 */
import { createHash, createHmac, pbkdf2Sync, randomBytes } from "node:crypto";
import pg from "pg";
import { z } from "zod";
import { APP_TABLE_WRITES, APP_UNREADABLE_COLUMNS } from "../platform/db/app-table-writes.ts";
import { parseSettings } from "../platform/env/env.ts";

export const DEFAULT_OWNER_ROLE = "par_owner";
export const DEFAULT_APP_ROLE = "par_app";

/** Plain names only: they are written into SQL (and into DO blocks) without further quoting rules. */
const roleName = z
  .string()
  .regex(/^(?!pg_)[a-z_][a-z0-9_]{0,62}$/, "must be a lower-case SQL name (letters, digits, _), not pg_…");
// Printable ASCII: PostgreSQL normalises other passwords (SASLprep) before hashing, which this script does not.
const password = z
  .string()
  .regex(
    /^[\x20-\x7e]{16,}$/,
    "must be at least 16 printable ASCII characters (e.g. `openssl rand -base64 32`)",
  )
  .optional();

const rolesSettings = z.object({
  DATABASE_ADMIN_URL: z
    .string({ error: "is required: a superuser's URL of the app's database" })
    .min(1, "is required: a superuser's URL of the app's database"),
  DB_OWNER_ROLE: roleName.default(DEFAULT_OWNER_ROLE),
  DB_APP_ROLE: roleName.default(DEFAULT_APP_ROLE),
  DB_OWNER_PASSWORD: password,
  DB_APP_PASSWORD: password,
});

/** Every setting `npm run db:roles` reads (docs/configuration.md lists each with the process `roles`). */
export const ROLES_SETTINGS = Object.keys(
  rolesSettings.shape,
) as readonly (keyof typeof rolesSettings.shape)[];

const rolesEnvSchema = rolesSettings.refine((e) => e.DB_OWNER_ROLE !== e.DB_APP_ROLE, {
  path: ["DB_APP_ROLE"],
  message: "must differ from DB_OWNER_ROLE",
});

export interface RolesRecipe {
  ownerRole: string;
  appRole: string;
  ownerPassword?: string | undefined;
  appPassword?: string | undefined;
}

/** The script's settings from the environment; throws one message naming every problem. */
export function parseRolesEnv(
  source: Record<string, string | undefined>,
  options: { needsAdminUrl: boolean },
): RolesRecipe & { adminUrl: string } {
  const e = parseSettings(
    rolesEnvSchema,
    options.needsAdminUrl ? source : { DATABASE_ADMIN_URL: "-", ...source },
    "db:roles",
  );
  return {
    adminUrl: e.DATABASE_ADMIN_URL,
    ownerRole: e.DB_OWNER_ROLE,
    appRole: e.DB_APP_ROLE,
    ownerPassword: e.DB_OWNER_PASSWORD,
    appPassword: e.DB_APP_PASSWORD,
  };
}

/**
 * A SCRAM-SHA-256 verifier, as PostgreSQL stores it (RFC 5802/7677): the password itself never reaches the
 * server, its statement log or `--print`'s output.
 */
export function scramVerifier(secret: string, salt = randomBytes(16), iterations = 4096): string {
  const salted = pbkdf2Sync(secret, salt, iterations, 32, "sha256");
  const hmac = (text: string) => createHmac("sha256", salted).update(text).digest();
  const storedKey = createHash("sha256").update(hmac("Client Key")).digest("base64");
  return `SCRAM-SHA-256$${iterations}:${salt.toString("base64")}$${storedKey}:${hmac("Server Key").toString("base64")}`;
}

function rolesSql({ ownerRole: owner, appRole: app, ownerPassword, appPassword }: RolesRecipe): string {
  const attributes = "LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE NOREPLICATION NOBYPASSRLS";
  const passwords = [
    ...(ownerPassword ? [`ALTER ROLE "${owner}" WITH PASSWORD '${scramVerifier(ownerPassword)}';`] : []),
    ...(appPassword ? [`ALTER ROLE "${app}" WITH PASSWORD '${scramVerifier(appPassword)}';`] : []),
  ];
  return `-- 1. The roles: created when missing, their attributes set on every run.
DO $$ BEGIN
  IF NOT (SELECT rolsuper FROM pg_roles WHERE rolname = current_user) THEN
    RAISE EXCEPTION 'db:roles must run as a superuser (it creates roles and changes owners)';
  END IF;
  IF current_user IN ('${owner}', '${app}') THEN
    RAISE EXCEPTION 'db:roles must not run as the role it restricts (%)', current_user;
  END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${owner}') THEN CREATE ROLE "${owner}"; END IF;
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = '${app}') THEN CREATE ROLE "${app}"; END IF;
END $$;
ALTER ROLE "${owner}" WITH ${attributes};
ALTER ROLE "${app}" WITH ${attributes};
${passwords.join("\n")}
-- The app acts as no other role: a membership would bring that role's rights (pg_write_all_data, the owner's).
DO $$ DECLARE m record; BEGIN
  FOR m IN SELECT a.roleid::regrole AS role, a.grantor::regrole AS grantor FROM pg_auth_members a
           WHERE a.member = '${app}'::regrole LOOP
    EXECUTE format('REVOKE %s FROM %I GRANTED BY %s', m.role, '${app}', m.grantor);
  END LOOP;
END $$;

-- 2. The database: the two roles connect (superusers always can), nobody else. The owner may create schemas
--    (Prisma's first migration says CREATE SCHEMA IF NOT EXISTS "public") and temporary tables (db:import stages
--    its lines in them); the app neither.
DO $$ BEGIN
  EXECUTE format('REVOKE ALL ON DATABASE %I FROM PUBLIC, %I', current_database(), '${app}');
  EXECUTE format('GRANT CONNECT ON DATABASE %I TO %I, %I', current_database(), '${owner}', '${app}');
  EXECUTE format('GRANT CREATE, TEMPORARY ON DATABASE %I TO %I', current_database(), '${owner}');
END $$;
`;
}

/** Everything in the schema belongs to the owner, also what an earlier setup migrated as postgres. */
function ownershipSql(owner: string): string {
  const notExtension = (catalog: string, oid: string) =>
    `NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = '${catalog}'::regclass AND d.objid = ${oid} AND d.deptype = 'e')`;
  return `-- 3. The schema and every object in it belong to the owner; the app may only look names up.
ALTER SCHEMA public OWNER TO "${owner}";
DO $$ DECLARE o record; BEGIN
  FOR o IN
    SELECT format('ALTER %s %s OWNER TO %I', CASE c.relkind WHEN 'S' THEN 'SEQUENCE' WHEN 'v' THEN 'VIEW'
             WHEN 'm' THEN 'MATERIALIZED VIEW' WHEN 'f' THEN 'FOREIGN TABLE' ELSE 'TABLE' END, c.oid::regclass, '${owner}') AS sql
    FROM pg_class c
    WHERE c.relnamespace = 'public'::regnamespace AND c.relkind IN ('r', 'p', 'v', 'm', 'f', 'S')
      AND c.relowner <> '${owner}'::regrole
      -- a column's sequence follows its table
      AND NOT EXISTS (SELECT FROM pg_depend d WHERE d.classid = 'pg_class'::regclass AND d.objid = c.oid
                      AND d.deptype IN ('a', 'i', 'e'))
    UNION ALL
    SELECT format('ALTER %s %s OWNER TO %I', CASE t.typtype WHEN 'd' THEN 'DOMAIN' ELSE 'TYPE' END, t.oid::regtype, '${owner}')
    FROM pg_type t
    WHERE t.typnamespace = 'public'::regnamespace AND t.typtype IN ('e', 'd', 'r') AND t.typowner <> '${owner}'::regrole
      AND ${notExtension("pg_type", "t.oid")}
    UNION ALL
    SELECT format('ALTER ROUTINE %s OWNER TO %I', p.oid::regprocedure, '${owner}')
    FROM pg_proc p
    WHERE p.pronamespace = 'public'::regnamespace AND p.proowner <> '${owner}'::regrole
      AND ${notExtension("pg_proc", "p.oid")}
  LOOP
    EXECUTE o.sql;
  END LOOP;
END $$;
`;
}

/** The app's grants on one table it writes (skipped, with a notice, until a migration has created it). */
function tableWriteSql(app: string, table: string, writes: readonly string[]): string {
  return `DO $$ DECLARE s regclass; BEGIN
  IF to_regclass('public.${table}') IS NULL THEN
    RAISE NOTICE '${table} does not exist yet: run db:roles again after db:migrate';
    RETURN;
  END IF;
  GRANT ${writes.join(", ")} ON public."${table}" TO "${app}";
  FOR s IN SELECT d.objid::regclass FROM pg_depend d JOIN pg_class c ON c.oid = d.objid AND c.relkind = 'S'
           WHERE d.refobjid = 'public.${table}'::regclass AND d.deptype IN ('a', 'i') LOOP
    EXECUTE format('GRANT USAGE ON SEQUENCE %s TO %I', s, '${app}');
  END LOOP;
END $$;`;
}

/** SELECT on a table's columns but the listed ones (when the table exists): platform/db/app-table-writes.ts. */
function unreadableColumnsSql(app: string, table: string, columns: readonly string[]): string {
  const hidden = columns.map((c) => `'${c}'`).join(", ");
  return `DO $$
BEGIN
  IF to_regclass('public."${table}"') IS NOT NULL THEN
    REVOKE SELECT ON public."${table}" FROM "${app}";
    EXECUTE (SELECT format('GRANT SELECT (%s) ON public.%I TO %I', string_agg(quote_ident(column_name), ', '
        ORDER BY ordinal_position), '${table}', '${app}')
      FROM information_schema.columns
      WHERE table_schema = 'public' AND table_name = '${table}' AND column_name NOT IN (${hidden}));
  END IF;
END $$;`;
}

function grantsSql({ ownerRole: owner, appRole: app }: RolesRecipe): string {
  const writes = Object.entries(APP_TABLE_WRITES).map(([table, w]) => tableWriteSql(app, table, w));
  const hidden = Object.entries(APP_UNREADABLE_COLUMNS).map(([table, c]) =>
    unreadableColumnsSql(app, table, c),
  );
  return `-- 4. The app reads every table and writes only what platform/db/app-table-writes.ts lists.
REVOKE ALL ON SCHEMA public FROM PUBLIC, "${app}";
GRANT USAGE ON SCHEMA public TO "${app}";
REVOKE ALL ON ALL TABLES IN SCHEMA public FROM PUBLIC, "${app}";
REVOKE ALL ON ALL SEQUENCES IN SCHEMA public FROM PUBLIC, "${app}";
GRANT SELECT ON ALL TABLES IN SCHEMA public TO "${app}";
${hidden.join("\n")}
${writes.join("\n")}

-- 5. Tables a later migration creates are readable by the app at once (writes need a new run of db:roles).
${["", " IN SCHEMA public"]
  .flatMap((where) =>
    ["TABLES", "SEQUENCES"].map(
      (kind) => `ALTER DEFAULT PRIVILEGES FOR ROLE "${owner}"${where} REVOKE ALL ON ${kind} FROM "${app}";`,
    ),
  )
  .join("\n")}
ALTER DEFAULT PRIVILEGES FOR ROLE "${owner}" IN SCHEMA public GRANT SELECT ON TABLES TO "${app}";
`;
}

/** The whole recipe as one SQL script (one transaction); running it again changes nothing. */
export function rolesRecipeSql(recipe: RolesRecipe): string {
  return [
    "-- npm run db:roles (scripts/db-roles-recipe.ts): least privilege for the Player Account Read Service.",
    "-- Idempotent. Run as a superuser on the app's database, before the first and after every db:migrate.",
    "BEGIN;",
    rolesSql(recipe),
    ownershipSql(recipe.ownerRole),
    grantsSql(recipe),
    "COMMIT;",
    "",
  ].join("\n");
}

/** Runs the recipe on the database at `adminUrl`; returns the server's notices (tables not there yet). */
export async function applyRolesRecipe(adminUrl: string, recipe: RolesRecipe): Promise<string[]> {
  const client = new pg.Client({ connectionString: adminUrl });
  const notices: string[] = [];
  client.on("notice", (notice) => notices.push(notice.message ?? ""));
  await client.connect();
  try {
    await client.query(rolesRecipeSql(recipe));
  } finally {
    await client.end();
  }
  return notices;
}
