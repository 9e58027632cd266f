import pg from "pg";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "@/platform/db/embedded";
import { applyMigrations } from "@/platform/db/schema-engine";

/*
 * Where the data tools write: DATABASE_URL when set; otherwise the embedded database's data directory
 * (EMBEDDED_DB_DIR or .data/pglite), opened the way scripts/serve-embedded.ts opens it. PGlite has a single writer,
 * so the app must not be running on that directory at the same time.
 */
export interface DatabaseTarget {
  client: pg.Client;
  embedded: boolean;
  describe: string;
  close(): Promise<void>;
}

export async function openDatabaseTarget(): Promise<DatabaseTarget> {
  const url = process.env.DATABASE_URL;
  let embedded: EmbeddedDatabase | undefined;
  let describe: string;
  if (url) {
    const parsed = new URL(url);
    describe = `PostgreSQL ${parsed.host}${parsed.pathname}`;
  } else {
    const dataDir = process.env.EMBEDDED_DB_DIR;
    describe = `embedded PostgreSQL (PGlite) in ${dataDir ?? ".data/pglite"} — stop the app first, it must not run at the same time`;
    embedded = await startEmbeddedDatabase(dataDir ? { dataDir } : {});
    await applyMigrations(embedded.url);
  }
  const client = new pg.Client({ connectionString: url ?? embedded?.url });
  await client.connect();
  return {
    client,
    embedded: embedded !== undefined,
    describe,
    async close() {
      await client.end();
      await embedded?.stop();
    },
  };
}
