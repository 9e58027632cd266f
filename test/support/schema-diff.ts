import pg from "pg";
import { NO_FILTER, readMigrationList, withEngine } from "../../platform/db/schema-engine.ts";

/**
 * SQL that would bring the schema produced by the migrations to prisma/schema.prisma; empty when they agree.
 * Replaying migrations needs a scratch (shadow) database, which is wiped. `options` replace the schema text
 * or the migrations folder (to show that a difference is detected).
 */
export async function diffMigrationsToSchema(
  shadowDatabaseUrl: string,
  options: { schema?: string; migrationsDir?: string } = {},
): Promise<string> {
  const migrationsList = await readMigrationList(options.migrationsDir);
  // The engine replays the migrations onto the shadow database as it finds it: without this wipe a second
  // diff fails ("type already exists"), and leftovers from an earlier diff would hide missing migrations.
  await wipeDatabase(shadowDatabaseUrl);
  return withEngine(
    shadowDatabaseUrl,
    async (engine, schema) => {
      const result = await engine.diff({
        from: { tag: "migrations", ...migrationsList },
        to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
        script: true,
        exitCode: null,
        filters: NO_FILTER,
      });
      return result.stdout ?? "";
    },
    shadowDatabaseUrl,
    options.schema,
  );
}

async function wipeDatabase(connectionString: string): Promise<void> {
  const client = new pg.Client({ connectionString });
  await client.connect();
  try {
    await client.query("DROP SCHEMA IF EXISTS public CASCADE; CREATE SCHEMA public");
  } finally {
    await client.end();
  }
}
