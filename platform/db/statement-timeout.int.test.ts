import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { isDatabaseUnavailable } from "@/platform/db/unavailable";
import { restoreEnv, stubEnv } from "@/test/support/env";
import { createPrismaClient } from "./client.ts";
import type { PrismaClient } from "./generated/client.ts";

/*
 * Every statement runs under PostgreSQL's statement_timeout (DB_STATEMENT_TIMEOUT_MS), and overrunning it
 * is classified as "database unavailable" (503), not a bug. PGlite, the embedded database, does not
 * enforce statement_timeout, so this runs against PostgreSQL only.
 */
const postgres = inject("databaseKind") === "postgres";
let db: PrismaClient;
beforeAll(() => {
  stubEnv({ DB_STATEMENT_TIMEOUT_MS: "300" });
  db = createPrismaClient(inject("databaseUrl"), 2);
});
afterAll(async () => {
  await db.$disconnect();
  restoreEnv();
});

describe.skipIf(!postgres)("statement timeout", () => {
  it("applies the configured timeout to the pool's connections", async () => {
    const [row] = await db.$queryRaw<{ statement_timeout: string }[]>`SHOW statement_timeout`;
    expect(row?.statement_timeout).toBe("300ms");
  });

  it("cancels a statement that runs too long, as a 503-class error, and the pool keeps working", async () => {
    const error = await db.$queryRaw`SELECT pg_sleep(5)::text`.catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Error);
    expect(isDatabaseUnavailable(error)).toBe(true);
    expect(await db.$queryRaw`SELECT 1 AS ok`).toEqual([{ ok: 1 }]);
  });
});
