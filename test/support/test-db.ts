/*
 * Databases for tests: a fresh PostgreSQL database on the server named by TEST_POSTGRES_URL
 * (default: the local server), or an embedded in-memory PGlite. Both are migrated with the real
 * migrations and loaded with the demo data plus the test fixtures.
 */
import { rm } from "node:fs/promises";
import pg from "pg";
import { startEmbeddedDatabase } from "../../platform/db/embedded.ts";
import { applyMigrations } from "../../platform/db/schema-engine.ts";
import { seedDemoData } from "../../prisma/seed.ts";
import { loadTestFixtures } from "./test-fixtures.ts";

export type TestDatabaseKind = "postgres" | "embedded";

export const DEFAULT_TEST_POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/postgres";

export interface TestDatabase {
  kind: TestDatabaseKind;
  url: string;
  stop(): Promise<void>;
}

export function postgresAdminUrl(): string {
  return process.env.TEST_POSTGRES_URL ?? DEFAULT_TEST_POSTGRES_URL;
}

export async function postgresReachable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: postgresAdminUrl(), connectionTimeoutMillis: 2_000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** Drops and recreates database `name` on the test server; returns its URL. */
export async function recreatePostgresDatabase(name: string): Promise<string> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await admin.query(`CREATE DATABASE "${name}"`);
  } finally {
    await admin.end();
  }
  const url = new URL(postgresAdminUrl());
  url.pathname = `/${name}`;
  return url.toString();
}

export async function dropPostgresDatabase(name: string): Promise<void> {
  const admin = new pg.Client({ connectionString: postgresAdminUrl() });
  await admin.connect();
  try {
    await admin.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
  } finally {
    await admin.end();
  }
}

export async function migrateAndSeed(url: string): Promise<void> {
  await applyMigrations(url);
  const pool = new pg.Pool({ connectionString: url, max: 1 });
  try {
    await seedDemoData(pool);
    await loadTestFixtures(pool);
  } finally {
    await pool.end();
  }
}

export async function prepareTestDatabase(kind: TestDatabaseKind, name: string): Promise<TestDatabase> {
  if (kind === "postgres") {
    const url = await recreatePostgresDatabase(name);
    await migrateAndSeed(url);
    return { kind, url, stop: () => dropPostgresDatabase(name) };
  }
  const embedded = await startEmbeddedDatabase({ dataDir: "memory://" });
  await migrateAndSeed(embedded.url);
  return { kind, url: embedded.url, stop: () => embedded.stop() };
}

/**
 * A fresh on-disk embedded database with the demo data and the test fixtures, for the app server
 * of the e2e run: scripts/serve-embedded.ts finds it seeded and leaves it as it is.
 */
export async function prepareEmbeddedDataDir(dataDir: string): Promise<void> {
  await rm(dataDir, { recursive: true, force: true });
  const embedded = await startEmbeddedDatabase({ dataDir });
  try {
    await migrateAndSeed(embedded.url);
  } finally {
    await embedded.stop();
  }
}
