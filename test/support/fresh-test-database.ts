import { startEmbeddedDatabase } from "@/platform/db/embedded";
import { applyMigrations } from "@/platform/db/schema-engine";
import {
  dropPostgresDatabase,
  recreatePostgresDatabase,
  type TestDatabaseKind,
} from "@/test/support/test-db";

/**
 * For tests of the data tools, which replace or add whole data sets: an empty, migrated database of their
 * own (the shared integration database keeps the demo data the other tests rely on).
 */
export async function freshTestDatabase(
  kind: TestDatabaseKind,
  name: string,
): Promise<{ url: string; stop(): Promise<void> }> {
  if (kind === "postgres") {
    const database = `${process.env.TEST_DB_PREFIX ?? "par"}_${name}_${process.pid}`;
    const url = await recreatePostgresDatabase(database);
    await applyMigrations(url);
    return { url, stop: () => dropPostgresDatabase(database) };
  }
  const embedded = await startEmbeddedDatabase({ dataDir: "memory://" });
  await applyMigrations(embedded.url);
  return { url: embedded.url, stop: () => embedded.stop() };
}
