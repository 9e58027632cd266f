import { appTableWriteKeys } from "./app-table-writes.ts";
import { getPrisma } from "./client.ts";
import type { PrismaClient } from "./generated/client.ts";

/** What the app's connection may do beyond reading the read model and appending to the audit trail. */
export interface DatabaseRole {
  /** The role the connection runs as (current_user). */
  name: string;
  /** The quick start's embedded PGlite: one local user who owns everything; roles mean nothing there. */
  embedded: boolean;
  /** Each way this role could rewrite the audit trail or the player data; empty for a least-privilege role. */
  risks: string[];
}

interface RoleRow {
  name: string;
  embedded: boolean;
  superusers: string[] | null;
  createrole: boolean | null;
  owns_audit: boolean | null;
  owns_schema: boolean | null;
  audit_rights: string[] | null;
  other_writes: string[] | null;
  server_version: number;
}

/*
 * `me` is every role this connection can act as: itself and each role it is a member of (it may SET ROLE to
 * them, or inherits their rights), so a right held through a group role counts too.
 */
async function readRole(db: PrismaClient): Promise<RoleRow | undefined> {
  const [row] = await db.$queryRaw<RoleRow[]>`
    WITH me AS (
      SELECT r.oid, r.rolname, r.rolsuper, r.rolcreaterole FROM pg_roles r
      WHERE pg_has_role(current_user, r.oid, 'MEMBER')
    ), audit AS (
      SELECT c.oid, c.relowner, c.relnamespace, n.nspowner
      FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace
      WHERE c.oid = to_regclass('audit_events')
    )
    SELECT current_user::text AS name,
      version() LIKE '%(PGlite %' AS embedded,
      (SELECT array_agg(rolname::text ORDER BY rolname) FROM me WHERE rolsuper) AS superusers,
      (SELECT bool_or(rolcreaterole) FROM me) AS createrole,
      (SELECT pg_has_role(current_user, a.relowner, 'MEMBER') FROM audit a) AS owns_audit,
      (SELECT pg_has_role(current_user, a.nspowner, 'MEMBER') FROM audit a) AS owns_schema,
      (SELECT array_agg(DISTINCT p ORDER BY p) FROM audit a CROSS JOIN me
         CROSS JOIN unnest(ARRAY['UPDATE', 'DELETE', 'TRUNCATE', 'TRIGGER']) p
         WHERE has_table_privilege(me.oid, a.oid, p)) AS audit_rights,
      (SELECT array_agg(DISTINCT c.relname || ' ' || p ORDER BY c.relname || ' ' || p)
         FROM audit a JOIN pg_class c ON c.relnamespace = a.relnamespace AND c.relkind IN ('r', 'p')
         CROSS JOIN me CROSS JOIN unnest(ARRAY['INSERT', 'UPDATE', 'DELETE', 'TRUNCATE']) p
         WHERE c.oid <> a.oid AND has_table_privilege(me.oid, c.oid, p)
           AND NOT (c.relname || ':' || p) = ANY(${appTableWriteKeys()}::text[])) AS other_writes,
      current_setting('server_version_num')::int AS server_version`;
  return row;
}

/** session_replication_role = replica turns ordinary triggers off, the audit trail's among them. */
async function canSkipTriggers(db: PrismaClient, serverVersion: number): Promise<boolean> {
  // Before PostgreSQL 15 only superusers may set it, and has_parameter_privilege does not exist.
  if (serverVersion < 150_000) return false;
  const [row] = await db.$queryRaw<{ can: boolean | null }[]>`
    SELECT bool_or(has_parameter_privilege(r.oid, 'session_replication_role', 'SET')) AS can
    FROM pg_roles r WHERE pg_has_role(current_user, r.oid, 'MEMBER')`;
  return row?.can === true;
}

function describeRisks(row: RoleRow, skipsTriggers: boolean): string[] {
  const superusers = row.superusers ?? [];
  if (superusers.length > 0) {
    return superusers.includes(row.name)
      ? ["is a superuser"]
      : [`can act as the superuser ${superusers.map((s) => `"${s}"`).join(", ")}`];
  }
  const risks: string[] = [];
  if (row.createrole) risks.push("may create roles (and so grant itself the owner's)");
  if (row.owns_audit) risks.push("owns audit_events (may turn its append-only triggers off)");
  if (row.owns_schema) risks.push("owns the schema of audit_events (may drop or replace the table)");
  if (row.audit_rights?.length) risks.push(`holds ${row.audit_rights.join(", ")} on audit_events`);
  if (skipsTriggers) risks.push("may SET session_replication_role (turns triggers off)");
  if (row.other_writes?.length)
    risks.push(`may write beyond the app's needs: ${row.other_writes.join(", ")}`);
  return risks;
}

/** What the role behind `db` could do to the audit trail and the player data. */
export async function inspectDatabaseRole(db: PrismaClient = getPrisma()): Promise<DatabaseRole> {
  const row = await readRole(db);
  if (!row) throw new Error("the connection's role is not in pg_roles");
  if (row.embedded) return { name: row.name, embedded: true, risks: [] };
  const skipsTriggers = await canSkipTriggers(db, row.server_version);
  return { name: row.name, embedded: false, risks: describeRisks(row, skipsTriggers) };
}
