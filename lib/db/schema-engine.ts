import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { bindMigrationAwareSqlAdapterFactory } from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";

/*
 * Prisma's schema engine, compiled to WebAssembly, driven through the pg driver adapter.
 * The CLI's native engine cannot be downloaded here; this module does what `prisma migrate deploy`
 * and `prisma migrate diff` do, on the same standard prisma/migrations folders and _prisma_migrations table.
 * The WASM API is internal to Prisma, so everything that touches it lives in this one file.
 */

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");
export const SCHEMA_FILE = path.resolve(process.cwd(), "prisma/schema.prisma");
const NO_FILTER = { externalTables: [], externalEnums: [] };

type Glue = typeof import("@prisma/schema-engine-wasm");
let gluePromise: Promise<Glue> | undefined;

function loadGlue(): Promise<Glue> {
  gluePromise ??= (async () => {
    const require = createRequire(import.meta.url);
    const gluePath = require.resolve("@prisma/schema-engine-wasm/schema_engine_bg");
    const glue = (await import(gluePath)) as Glue & {
      __wbg_set_wasm(exports: WebAssembly.Exports): void;
    };
    const bytes = await readFile(gluePath.replace(/\.js$/, ".wasm"));
    // The package's entry point imports the .wasm as an ES module, which Node 20 cannot; instantiate by hand.
    const { instance } = await WebAssembly.instantiate(bytes, { "./schema_engine_bg.js": glue });
    glue.__wbg_set_wasm(instance.exports);
    (instance.exports.__wbindgen_start as () => void)();
    return glue;
  })();
  return gluePromise;
}

export async function readMigrationList(dir = MIGRATIONS_DIR): Promise<MigrationList> {
  const lockPath = "migration_lock.toml";
  const lockContent = await readFile(path.join(dir, lockPath), "utf8").catch(() => null);
  const entries = await readdir(dir, { withFileTypes: true });
  const migrationDirectories = await Promise.all(
    entries
      .filter((e) => e.isDirectory())
      .map((e) => e.name)
      .sort()
      .map(async (name) => {
        const content = await readFile(path.join(dir, name, "migration.sql"), "utf8")
          .then((value) => ({ tag: "ok" as const, value }))
          .catch((error: Error) => ({ tag: "error" as const, value: error.message }));
        return { path: name, migrationFile: { path: "migration.sql", content } };
      }),
  );
  return {
    baseDir: dir,
    lockfile: { path: lockPath, content: lockContent },
    shadowDbInitScript: "",
    migrationDirectories,
  };
}

/**
 * @prisma/adapter-pg's executeScript splits a migration at every `;`, which breaks any statement with a
 * semicolon inside (a PL/pgSQL body, a string). Send the whole file as one simple query instead, as
 * `prisma migrate deploy` does: PostgreSQL runs it as one implicit transaction.
 */
function wholeScriptAdapter(factory: PrismaPg): PrismaPg {
  const connect = factory.connect.bind(factory);
  factory.connect = async () => {
    const adapter = await connect();
    adapter.executeScript = async (script: string) => {
      try {
        await adapter.underlyingDriver().query(script);
      } catch (error) {
        // The engine expects the adapter's own error conversion (a DriverAdapterError).
        (adapter as unknown as { onError(error: unknown): never }).onError(error);
      }
    };
    return adapter;
  };
  return factory;
}

async function withEngine<T>(
  connectionString: string,
  use: (engine: SchemaEngine, schema: string) => Promise<T>,
  shadowDatabaseUrl?: string,
): Promise<T> {
  const glue = await loadGlue();
  const schema = await readFile(SCHEMA_FILE, "utf8");
  const factory = wholeScriptAdapter(new PrismaPg({ connectionString, max: 1 }));
  if (shadowDatabaseUrl) {
    // The engine asks for a shadow database when it replays migrations for a diff.
    const shadow = new PrismaPg({ connectionString: shadowDatabaseUrl, max: 1 });
    factory.connectToShadowDb = () => shadow.connect();
  }
  const adapter = bindMigrationAwareSqlAdapterFactory(factory);
  const engine = await glue.SchemaEngine.new({ datamodels: [["schema.prisma", schema]] }, () => {}, adapter);
  try {
    return await use(engine, schema);
  } finally {
    engine.free();
  }
}

/** Applies pending migrations (idempotent); returns the names applied now. */
export async function applyMigrations(connectionString: string): Promise<string[]> {
  const migrationsList = await readMigrationList();
  return withEngine(connectionString, async (engine) => {
    const out = await engine.applyMigrations({ migrationsList, filters: NO_FILTER });
    return out.appliedMigrationNames;
  });
}

/**
 * SQL that would bring the schema produced by the migrations to prisma/schema.prisma; empty when they agree.
 * Replaying migrations needs a scratch (shadow) database, which is wiped.
 */
export async function diffMigrationsToSchema(shadowDatabaseUrl: string): Promise<string> {
  const migrationsList = await readMigrationList();
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
  );
}

/** SQL that creates prisma/schema.prisma from nothing: used to write a new migration. */
export async function diffEmptyToSchema(connectionString: string): Promise<string> {
  return withEngine(connectionString, async (engine, schema) => {
    const result = await engine.diff({
      from: { tag: "empty" },
      to: { tag: "schemaDatamodel", files: [{ path: "schema.prisma", content: schema }] },
      script: true,
      exitCode: null,
      filters: NO_FILTER,
    });
    return result.stdout ?? "";
  });
}
