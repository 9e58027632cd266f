import { afterAll, describe, expect, it } from "vitest";
import { playerProfileSchema } from "@/features/players/schema/player";
import { stringifyJson } from "@/platform/http/json";
import { createTestPrisma } from "@/test/support/test-client";
import { EMPTY_FIXTURE_PLAYER_ID, FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { getPlayerProfile } from "./get-player-profile.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
afterAll(() => db.$disconnect());

describe("getPlayerProfile", () => {
  it("returns null for an unknown player", async () => {
    await expect(getPlayerProfile({ playerId: "NO-SUCH-PLAYER" }, db)).rejects.toMatchObject(NOT_FOUND);
    await expect(getPlayerProfile({ playerId: "ptest0001" }, db)).rejects.toMatchObject(NOT_FOUND); // ids are exact, not case-folded
  });

  it("returns every field, null where unknown", async () => {
    const profile = await getPlayerProfile({ playerId: EMPTY_FIXTURE_PLAYER_ID }, db);
    expect(profile).toMatchObject({
      id: EMPTY_FIXTURE_PLAYER_ID,
      email: null,
      phone: null,
      language: null,
      ftd_date: null,
      last_login: null,
      withdrawal_status: null,
      affiliate_name: null,
      affiliate_source: null,
      vip_manager: null,
      segments: [],
      kpi: { last_deposit: null, last_withdrawal: null, active_bonus: false },
      settings: { email_account_activation: null, sms_account_activation: null },
    });
    const json = JSON.parse(stringifyJson(profile));
    expect(Object.keys(json).sort()).toEqual(Object.keys(playerProfileSchema.shape).sort());
    for (const key of [
      "total_balance",
      "cash_balance",
      "bonus_balance",
      "withdrawable_balance",
      "pending_withdrawal",
    ]) {
      expect(json.balances[key], key).toBe(0);
    }
    expect([json.kpi.ltd, json.kpi.ltw, json.kpi.ltnc, json.kpi.wr]).toEqual([0, 0, 0, 0]);
  });

  it("derives the fixture player's balances and KPIs exactly from its transactions", async () => {
    const profile = await getPlayerProfile({ playerId: FIXTURE_PLAYER_ID }, db);
    expect(profile).not.toBeNull();
    if (!profile) return;
    expect(playerProfileSchema.parse(profile)).toEqual(profile);
    const digits = (x: { digits: string }) => x.digits;
    expect({
      total: digits(profile.balances.total_balance),
      cash: digits(profile.balances.cash_balance),
      bonus: digits(profile.balances.bonus_balance),
      withdrawable: digits(profile.balances.withdrawable_balance),
      pending: digits(profile.balances.pending_withdrawal),
    }).toEqual({
      // 0.1 + 0.2 + 0.3 + 123456789012.12345678 − 0.00000001 + 5 − 10 + 10 − 5 (pending withdrawal, reserved)
      // + (−1 − 1 + 2 + 2 − 1 − 1 + 1) − 3; the pending deposit of 1000 is not yet received.
      cash: "123456789010.72345677",
      bonus: "50",
      total: "123456789060.72345677",
      withdrawable: "123456789010.72345677",
      pending: "5",
    });
    expect(digits(profile.kpi.ltd)).toBe("0.6"); // never 0.6000000000000001
    expect(digits(profile.kpi.ltw)).toBe("3");
    expect(digits(profile.kpi.ltnc)).toBe("-2.4");
    expect(profile.kpi.active_bonus).toBe(true);
    expect(digits(profile.kpi.wr)).toBe("1486"); // 30 × 50 minus the five bets since the grant
    // Newest completed deposit: three share the newest instant, the highest id wins (FX0103, 0.3).
    expect(profile.kpi.last_deposit && digits(profile.kpi.last_deposit.amount)).toBe("0.3");
    expect(profile.kpi.last_deposit?.date).toBe("2025-03-01T10:00:00.000Z");
    expect(profile.kpi.last_withdrawal && digits(profile.kpi.last_withdrawal.amount)).toBe("3");
    expect(profile.kpi.last_withdrawal?.status).toBe("completed");
    expect(profile.ftd_date).toBe("2025-03-01T10:00:00.000Z");
    expect(profile.registration_date).toBe("2025-01-01T00:00:00.000Z");
    expect(profile.segments).toEqual(["test_fixture"]);
  });
});
