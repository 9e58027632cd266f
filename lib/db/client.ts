import { PrismaPg } from "@prisma/adapter-pg";
import { getEnv } from "@/lib/env";
import { PrismaClient } from "./generated/client.ts";

export function createPrismaClient(connectionString: string, max = getEnv().DB_POOL_SIZE): PrismaClient {
  const adapter = new PrismaPg({ connectionString, max, connectionTimeoutMillis: 5_000 });
  return new PrismaClient({ adapter });
}

const globalForPrisma = globalThis as unknown as { prisma?: PrismaClient };

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
