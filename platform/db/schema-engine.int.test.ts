import { copyFile, mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { diffMigrationsToSchema } from "../../test/support/schema-diff.ts";
import { dropPostgresDatabase, recreatePostgresDatabase } from "../../test/support/test-db.ts";
import { type EmbeddedDatabase, startEmbeddedDatabase } from "./embedded.ts";
import { MIGRATIONS_DIR, SCHEMA_FILE } from "./schema-engine.ts";

/*
 * The migrations in prisma/migrations must produce exactly prisma/schema.prisma. Replaying them needs a
 * scratch database: on PostgreSQL one named with this run's prefix, on the embedded run an in-memory PGlite.
 */
const scratchName = `${process.env.TEST_DB_PREFIX ?? "par"}_schema_${process.pid}`;
let scratchUrl: string;
let embedded: EmbeddedDatabase | undefined;

beforeAll(async () => {
  if (inject("databaseKind") === "postgres") {
    scratchUrl = await recreatePostgresDatabase(scratchName);
  } else {
    embedded = await startEmbeddedDatabase({ dataDir: "memory://" });
    scratchUrl = embedded.url;
  }
});
afterAll(async () => {
  if (embedded) await embedded.stop();
  else await dropPostgresDatabase(scratchName);
});

/** The engine writes a comment for an empty migration; only statements count as a difference. */
const statements = (sql: string) =>
  sql
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith("--"));

describe("migrations vs prisma/schema.prisma", () => {
  it("the migrations produce exactly the schema: an empty diff", async () => {
    const diff = await diffMigrationsToSchema(scratchUrl);
    expect(statements(diff)).toEqual([]);
  });

  it("a change to the schema shows up in the diff (so an empty diff means something)", async () => {
    const schema = await readFile(SCHEMA_FILE, "utf8");
    const changed = schema.replace(
      '  vipManager        String?   @map("vip_manager")',
      '  vipManager        String?   @map("vip_manager")\n  nickname          String?',
    );
    expect(changed).not.toBe(schema);
    const diff = statements(await diffMigrationsToSchema(scratchUrl, { schema: changed }));
    expect(diff.join("\n")).toMatch(/ALTER TABLE "players" ADD COLUMN\s+"nickname" TEXT/);
  });

  it("with no migrations at all the diff creates every table", async () => {
    const empty = await mkdtemp(path.join(tmpdir(), "no-migrations-"));
    try {
      // The lock file names the provider; only the migrations are missing.
      await copyFile(
        path.join(MIGRATIONS_DIR, "migration_lock.toml"),
        path.join(empty, "migration_lock.toml"),
      );
      const diff = (await diffMigrationsToSchema(scratchUrl, { migrationsDir: empty })).replace(/\s+/g, " ");
      expect(diff).toContain('CREATE TABLE "players"');
      expect(diff).toContain('CREATE TABLE "transactions"');
      expect(diff).toContain('CREATE INDEX "transactions_player_date_id_idx"');
    } finally {
      await rm(empty, { recursive: true, force: true });
    }
  });
});
