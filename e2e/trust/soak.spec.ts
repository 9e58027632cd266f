import { expect, test } from "@playwright/test";
import { postgresTestDatabase } from "./harness.ts";
import { runSoak } from "./soak.ts";

/*
 * The soak, kept short for the test suite: a bounded mixed load (valid reads, invalid requests, missing
 * credentials, other methods) ends with zero 5xx and zero lost audit records. `npx tsx e2e/trust/soak.ts` runs the
 * long version (minutes) and also judges memory; its last figures are in docs/trust.md.
 */
const DATABASE_URL = postgresTestDatabase();

test("short soak: no 5xx, no lost audit records", async () => {
  const report = await runSoak({ seconds: 20, concurrency: 6, rps: 120, databaseUrl: DATABASE_URL });
  test.info().annotations.push({ type: "figures", description: JSON.stringify(report) });
  expect(report.requests).toBeGreaterThan(100); // the bound is an upper one; a busy machine serves fewer
  expect(report.serverErrors).toBe(0);
  expect(report.socketErrors).toBe(0);
  expect(report.statuses["200"]).toBeGreaterThan(50);
  for (const status of ["400", "401", "403", "404", "405"])
    expect(report.statuses[status]).toBeGreaterThan(0);
  expect(report.auditRows).toBe(report.auditedReads);
  expect([0, 143]).toContain(report.exitCode);
});
