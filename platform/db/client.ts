import "server-only";
import { PrismaPg } from "@prisma/adapter-pg";
import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import { PrismaClient } from "./generated/client.ts";

/**
 * Every statement runs under PostgreSQL's statement_timeout, and the client gives up on a query a little
 * later (a server that stops answering mid-query) and on a connection attempt after DB_CONNECT_TIMEOUT_MS:
 * a database that is down or hung turns into a prompt 503, never a hanging request.
 */
export function createPrismaClient(connectionString: string, max = getEnv().DB_POOL_SIZE): PrismaClient {
  const env = getEnv();
  const adapter = new PrismaPg(
    {
      connectionString,
      max,
      connectionTimeoutMillis: env.DB_CONNECT_TIMEOUT_MS,
      statement_timeout: env.DB_STATEMENT_TIMEOUT_MS,
      query_timeout: env.DB_STATEMENT_TIMEOUT_MS + 2_000,
      idle_in_transaction_session_timeout: env.DB_STATEMENT_TIMEOUT_MS,
      keepAlive: true,
      // Drop idle connections after a while so a restarted server is reconnected to promptly.
      idleTimeoutMillis: 30_000,
    },
    {
      // An idle pooled connection whose server went away: pg discards it; without a listener it would crash the process.
      onPoolError: (error) => log.warn("database connection lost", describeError(error)),
    },
  );
  return new PrismaClient({ adapter });
}

const globalForPrisma = globalThis as unknown as {
  prisma?: PrismaClient;
  replicaPrisma?: PrismaClient | null;
};

/** One client per process (dev hot reload re-evaluates modules; the global keeps the pool). */
export function getPrisma(): PrismaClient {
  if (!globalForPrisma.prisma) {
    const url = getEnv().DATABASE_URL;
    if (!url) {
      throw new Error(
        "DATABASE_URL is not set: start the app with `npm run dev` / `npm start`, which provide one",
      );
    }
    globalForPrisma.prisma = createPrismaClient(url);
  }
  return globalForPrisma.prisma;
}

/**
 * The hot standby's client (DATABASE_REPLICA_URL), one per process; null when none is configured. Only the read
 * router (read-router.ts) hands it out, and only while the standby is streaming within the lag bound.
 */
export function getReplicaPrisma(): PrismaClient | null {
  if (globalForPrisma.replicaPrisma === undefined) {
    const url = getEnv().DATABASE_REPLICA_URL;
    globalForPrisma.replicaPrisma = url ? createPrismaClient(url) : null;
  }
  return globalForPrisma.replicaPrisma;
}
