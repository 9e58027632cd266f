import { inject } from "vitest";
import { createPrismaClient } from "./client.ts";

/** A Prisma client on the integration run's database (see scripts/vitest-integration-setup.ts). */
export function createTestPrisma() {
  return createPrismaClient(inject("databaseUrl"), 4);
}
