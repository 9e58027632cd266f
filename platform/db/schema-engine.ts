import { readdir, readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import path from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import {
  bindMigrationAwareSqlAdapterFactory,
  ColumnTypeEnum,
  type SqlDriverAdapter,
} from "@prisma/driver-adapter-utils";
import type { MigrationList, SchemaEngine } from "@prisma/schema-engine-wasm";
import pg from "pg";

/*
 * Prisma's schema engine, compiled to WebAssembly, driven through the pg driver adapter.
 * The CLI's native engine cannot be downloaded here; this module does what `prisma migrate deploy`
 * and `prisma migrate diff` do, on the same standard prisma/migrations folders and _prisma_migrations table.
 * The WASM API is internal to Prisma, so everything that touches it lives in this one file (and the tests'
 * migrations-to-schema diff, test/support/schema-diff.ts, through withEngine).
 */

export const MIGRATIONS_DIR = path.resolve(process.cwd(), "prisma/migrations");
export const SCHEMA_FILE = path.resolve(process.cwd(), "prisma/schema.prisma");
export const NO_FILTER = { externalTables: [], externalEnums: [] };

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

const PG_CHAR_OID = 18;
const PG_TEXT_OID = 25;

/** Result rows of queries that returned "char" columns → the indexes of those columns. */
const charColumnsOf = new WeakMap<object, number[]>();

type QueryResultLike = { fields?: { dataTypeID: number }[]; rows?: object };
function noteCharColumns<R>(result: R): R {
  for (const r of (Array.isArray(result) ? result : [result]) as (QueryResultLike | undefined)[]) {
    const indexes: number[] = [];
    r?.fields?.forEach((field, i) => {
      if (field.dataTypeID === PG_CHAR_OID) {
        field.dataTypeID = PG_TEXT_OID;
        indexes.push(i);
      }
    });
    if (indexes.length && r?.rows) charColumnsOf.set(r.rows, indexes);
  }
  return result;
}

/**
 * The engine introspects the catalog (pg_constraint.contype, pg_class.relkind …), whose columns have
 * PostgreSQL's one-byte "char" type. The pg driver adapter has no mapping for it and fails with
 * "Column type 'char' could not be deserialized", so every diff failed. This client lets the adapter
 * read such columns as text (pg already parses them as strings) and notes where they are, and
 * adapterFor() then reports them to the engine as the Character columns it expects.
 */
class CharAwareClient extends pg.Client {
  // biome-ignore lint/suspicious/noExplicitAny: pg's query has many overloads; this only wraps the result.
  override query(...args: any[]): any {
    const last = args.length - 1;
    const callback = args[last];
    if (typeof callback === "function") {
      args[last] = (error: unknown, result: unknown) =>
        callback(error, error ? result : noteCharColumns(result));
      return (super.query as (...a: unknown[]) => unknown)(...args);
    }
    const out = (super.query as (...a: unknown[]) => unknown)(...args);
    return out instanceof Promise ? out.then(noteCharColumns) : out;
  }
}

function withCharColumns<A extends SqlDriverAdapter>(adapter: A): A {
  const queryRaw = adapter.queryRaw.bind(adapter);
  adapter.queryRaw = async (query) => {
    const result = await queryRaw(query);
    for (const i of charColumnsOf.get(result.rows) ?? []) result.columnTypes[i] = ColumnTypeEnum.Character;
    return result;
  };
  return adapter;
}

/**
 * @prisma/adapter-pg's executeScript splits a migration at every `;`, which breaks any statement with a
 * semicolon inside (a PL/pgSQL body, a string). Send the whole file as one simple query instead, as
 * `prisma migrate deploy` does: PostgreSQL runs it as one implicit transaction.
 */
function withWholeScripts<A extends SqlDriverAdapter & { underlyingDriver(): pg.Pool }>(adapter: A): A {
  adapter.executeScript = async (script: string) => {
    try {
      await adapter.underlyingDriver().query(script);
    } catch (error) {
      // The engine expects the adapter's own error conversion (a DriverAdapterError).
      (adapter as unknown as { onError(error: unknown): never }).onError(error);
    }
  };
  return adapter;
}

function adapterFor(connectionString: string): PrismaPg {
  const factory = new PrismaPg({ connectionString, max: 1, Client: CharAwareClient });
  const connect = factory.connect.bind(factory);
  factory.connect = async () => withWholeScripts(withCharColumns(await connect()));
  return factory;
}

/** Runs `use` with an engine on `connectionString` (and a shadow database to replay migrations on). */
export async function withEngine<T>(
  connectionString: string,
  use: (engine: SchemaEngine, schema: string) => Promise<T>,
  shadowDatabaseUrl?: string,
  schemaText?: string,
): Promise<T> {
  const glue = await loadGlue();
  const schema = schemaText ?? (await readFile(SCHEMA_FILE, "utf8"));
  const factory = adapterFor(connectionString);
  if (shadowDatabaseUrl) {
    // The engine asks for a shadow database when it replays migrations for a diff.
    const shadow = adapterFor(shadowDatabaseUrl);
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
