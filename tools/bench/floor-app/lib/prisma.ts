import { PrismaPg } from "@prisma/adapter-pg";
import { PrismaClient } from "../../../../platform/db/generated/client.ts";

const globalForPrisma = globalThis as unknown as { floorPrisma?: PrismaClient };

/** One client per process, with a pool as large as the product's default (DB_POOL_SIZE 10). */
export function floorPrisma(): PrismaClient {
  if (!globalForPrisma.floorPrisma) {
    const connectionString = process.env.DATABASE_URL;
    if (!connectionString) throw new Error("the floor app needs DATABASE_URL");
    globalForPrisma.floorPrisma = new PrismaClient({ adapter: new PrismaPg({ connectionString, max: 10 }) });
  }
  return globalForPrisma.floorPrisma;
}
