import { afterAll, beforeAll, inject } from "vitest";
import { getAuditQueue } from "../../platform/audit/audit-recorder.ts";
import { getPrisma } from "../../platform/db/client.ts";
import { restoreEnv, stubEnv } from "./env.ts";

/*
 * For test files that run the app's code in-process (route handlers, data functions through the app's own
 * database client) on the integration run's database.
 */

/** After such a file's tests: writes the audit records still queued, closes the app's client and forgets it. */
export async function closeApp(): Promise<void> {
  await getAuditQueue().flush();
  await getPrisma().$disconnect();
  delete (globalThis as { prisma?: unknown }).prisma;
}

/** The file's route handlers run in AUTH_MODE=jwt, accepting the tokens the app issues; put back after. */
export function appIssuedTokensForFile(): void {
  beforeAll(() => {
    stubEnv({
      DATABASE_URL: inject("databaseUrl"),
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: "integration-secret-long-enough-for-hs256",
      LOG_LEVEL: "silent",
    });
  });
  afterAll(async () => {
    await closeApp();
    restoreEnv();
  });
}
