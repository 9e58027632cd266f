import { inject } from "vitest";
import { createPrismaClient } from "../../platform/db/client.ts";

/** A Prisma client on the integration run's database (see test/support/vitest-integration-setup.ts). */
export function createTestPrisma() {
  return createPrismaClient(inject("databaseUrl"), 4);
}
