import { chmod, mkdir, mkdtemp, readdir, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { unaccent } from "@electric-sql/pglite/contrib/unaccent";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/*
 * The embedded default database: PostgreSQL compiled to WebAssembly (PGlite), served over the PostgreSQL wire
 * protocol, so the app connects to it exactly as to a real server.
 *
 * PGlite's socket server has no authentication: whoever reaches it is superuser (can read every player and drop
 * the audit trigger). So it listens on a Unix socket in a fresh 0700 directory, never on TCP: only this OS user
 * (and root) can connect, the same people who can read the data files anyway. The data files are private too.
 */

export const DEFAULT_EMBEDDED_DIR = path.resolve(process.cwd(), ".data/pglite");

/** libpq's (and node-postgres's) socket file name for the default port: `<host directory>/.s.PGSQL.5432`. */
const SOCKET_FILE = ".s.PGSQL.5432";

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedDatabase(
  options: { dataDir?: string; maxConnections?: number } = {},
): Promise<EmbeddedDatabase> {
  const dataDir = options.dataDir ?? DEFAULT_EMBEDDED_DIR;
  if (dataDir !== "memory://") await makePrivateDataDir(dataDir);
  // The extensions the migrations create (the lookup's accent- and case-blind name index): PGlite only knows
  // the contrib modules handed to it here.
  const db = await PGlite.create(dataDir, { extensions: { pg_trgm, unaccent } });
  // Its first start copies a template in with mode 0666 whatever the umask: take those rights away once open.
  if (dataDir !== "memory://") await removeGroupAndOtherRights(dataDir);
  const socketDir = await mkdtemp(path.join(tmpdir(), "pglite-")); // mode 0700
  // PGlite runs one query at a time; the socket server queues them. It must accept as many
  // connections as the app's pool opens, or the extra ones are reset.
  const server = new PGLiteSocketServer({
    db,
    path: path.join(socketDir, SOCKET_FILE),
    maxConnections: options.maxConnections ?? 100,
  });
  await server.start();
  return {
    url: embeddedUrl(socketDir),
    async stop() {
      await server.stop();
      await db.close();
      await rm(socketDir, { recursive: true, force: true });
    },
  };
}

/** node-postgres reads a `host` that starts with "/" as the directory of a Unix socket. */
function embeddedUrl(socketDir: string): string {
  return `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&sslmode=disable`;
}

async function makePrivateDataDir(dataDir: string): Promise<void> {
  // Files PGlite creates later (new tables, WAL) take the process umask: none for group and others. Only the
  // process that holds the database opens a data directory, so the process-wide setting is the right scope.
  process.umask(0o077);
  await mkdir(dataDir, { recursive: true, mode: 0o700 });
  await chmod(dataDir, 0o700); // an older directory made before this rule
}

async function removeGroupAndOtherRights(dir: string): Promise<void> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const entryPath = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      await chmod(entryPath, 0o700);
      await removeGroupAndOtherRights(entryPath);
    } else if (entry.isFile()) {
      await chmod(entryPath, 0o600);
    }
  }
}
