import type { ClientBase } from "pg";

/*
 * Bulk loads are fastest into a table without indexes and keys, built afterwards by one sort each. These
 * read a table's indexes and constraints from the catalog, drop them, and recreate them verbatim.
 */

export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
const q = quoteIdent;

export type TableDependents = Awaited<ReturnType<typeof tableDependents>>;

/** Indexes, keys and foreign keys of `table`, as the catalog defines them (recreated verbatim). */
export async function tableDependents(client: ClientBase, table: string) {
  const indexes = await client.query<{ name: string; def: string }>(
    `SELECT i.indexname AS name, i.indexdef AS def FROM pg_indexes i
     WHERE i.schemaname = current_schema() AND i.tablename = $1
       AND NOT EXISTS (SELECT 1 FROM pg_constraint c WHERE c.conname = i.indexname)`,
    [table],
  );
  const constraints = await client.query<{ name: string; def: string; type: string }>(
    `SELECT conname AS name, pg_get_constraintdef(oid) AS def, contype AS type FROM pg_constraint
     WHERE conrelid = $1::regclass AND contype IN ('p', 'u', 'f') ORDER BY contype DESC`,
    [table],
  );
  return { indexes: indexes.rows, constraints: constraints.rows };
}

export async function dropDependents(
  client: ClientBase,
  table: string,
  d: Awaited<ReturnType<typeof tableDependents>>,
) {
  for (const c of d.constraints) await client.query(`ALTER TABLE ${q(table)} DROP CONSTRAINT ${q(c.name)}`);
  for (const index of d.indexes) await client.query(`DROP INDEX ${q(index.name)}`);
}

/** Keys first (the foreign key check and the other indexes do not need each other), foreign keys last. */
export async function restoreDependents(
  client: ClientBase,
  table: string,
  d: Awaited<ReturnType<typeof tableDependents>>,
) {
  for (const c of [...d.constraints].reverse()) {
    if (c.type === "f") continue;
    await client.query(`ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(c.name)} ${c.def}`);
  }
  for (const index of d.indexes) {
    await client.query(index.def);
  }
  for (const c of d.constraints)
    if (c.type === "f") await client.query(`ALTER TABLE ${q(table)} ADD CONSTRAINT ${q(c.name)} ${c.def}`);
}
