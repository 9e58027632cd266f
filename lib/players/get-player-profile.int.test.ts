import { afterAll, describe, expect, it } from "vitest";
import { createTestPrisma } from "@/lib/db/test-client";
import { getPlayerProfile } from "./get-player-profile.ts";

const db = createTestPrisma();
afterAll(() => db.$disconnect());

describe("getPlayerProfile", () => {
  it("returns null for an unknown player", async () => {
    expect(await getPlayerProfile("NO-SUCH-PLAYER", db)).toBeNull();
  });

  it("returns every field, null where unknown", async () => {
    const profile = await getPlayerProfile("PTEST0002", db);
    expect(profile).toMatchObject({
      id: "PTEST0002",
      email: null,
      language: null,
      ftd_date: null,
      kpi: { last_deposit: null, last_withdrawal: null, active_bonus: false },
    });
    expect(profile?.balances.total_balance.digits).toBe("0");
  });
});
