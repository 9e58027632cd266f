import type { TestProject } from "vitest/node";
import { prepareTestDatabase, type TestDatabaseKind } from "./test-db.ts";

declare module "vitest" {
  export interface ProvidedContext {
    databaseUrl: string;
    databaseKind: TestDatabaseKind;
  }
}

/** Integration tests run against TEST_DB=postgres (default) or TEST_DB=embedded, freshly migrated and seeded. */
export default async function setup(project: TestProject) {
  const kind: TestDatabaseKind = process.env.TEST_DB === "embedded" ? "embedded" : "postgres";
  const db = await prepareTestDatabase(kind, `${process.env.TEST_DB_PREFIX ?? "par"}_it_${process.pid}`);
  project.provide("databaseUrl", db.url);
  project.provide("databaseKind", kind);
  return async () => {
    await db.stop();
  };
}
