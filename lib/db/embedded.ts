import { mkdir } from "node:fs/promises";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { PGLiteSocketServer } from "@electric-sql/pglite-socket";

/*
 * The embedded default database: PostgreSQL compiled to WebAssembly (PGlite), served over the
 * PostgreSQL wire protocol on loopback, so the app connects to it exactly as to a real server.
 */

export const DEFAULT_EMBEDDED_DIR = path.resolve(process.cwd(), ".data/pglite");

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

export async function startEmbeddedDatabase(
  options: { dataDir?: string; port?: number; maxConnections?: number } = {},
): Promise<EmbeddedDatabase> {
  const dataDir = options.dataDir ?? DEFAULT_EMBEDDED_DIR;
  if (dataDir !== "memory://") await mkdir(dataDir, { recursive: true });
  const db = await PGlite.create(dataDir);
  // PGlite runs one query at a time; the socket server queues them. It must accept as many
  // connections as the app's pool opens, or the extra ones are reset.
  const server = new PGLiteSocketServer({
    db,
    host: "127.0.0.1",
    port: options.port ?? 0,
    maxConnections: options.maxConnections ?? 100,
  });
  await server.start();
  const conn = server.getServerConn(); // "127.0.0.1:PORT"
  return {
    url: `postgresql://postgres:postgres@${conn}/postgres?sslmode=disable`,
    async stop() {
      await server.stop();
      await db.close();
    },
  };
}
