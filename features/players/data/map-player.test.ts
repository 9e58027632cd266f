import { describe, expect, it } from "vitest";
import { playerProfileSchema, playerSummarySchema } from "@/features/players/schema/player";
import { type Player, Prisma } from "@/platform/db/generated/client";
import { stringifyJson } from "@/platform/http/json";
import { toPlayerProfile, toPlayerSummary } from "./map-player.ts";

const D = (v: string) => new Prisma.Decimal(v);

function row(overrides: Partial<Player> = {}): Player {
  return {
    id: "P1",
    name: "Ada Lovelace",
    email: "ada@example.com",
    phone: "+44 7000000000",
    currency: "GBP",
    language: "English",
    registrationDate: new Date("2025-01-02T03:04:05.678+02:00"),
    ftdDate: new Date("2025-01-03T00:00:00Z"),
    lastLogin: new Date("2025-02-01T10:00:00Z"),
    kycStatus: "approved",
    updatedAt: new Date("2026-11-26T04:00:00.000Z"),
    withdrawalStatus: "allowed",
    affiliateName: "CasinoGuru",
    affiliateSource: "seo",
    vipManager: "Sarah Mitchell",
    blocked: false,
    totalBalance: D("123456789012.12345678"),
    cashBalance: D("0.30000000"),
    bonusBalance: D("-0.00000001"),
    withdrawableBalance: D("0"),
    pendingWithdrawal: D("1E-8"),
    activeBonus: true,
    wr: D("1500.50"),
    lastWithdrawalAmount: D("25.00"),
    lastWithdrawalStatus: "pending",
    lastWithdrawalDate: new Date("2025-01-06T08:30:00Z"),
    lastDepositAmount: D("100.10"),
    lastDepositDate: new Date("2025-01-05T12:00:00.5Z"),
    ltd: D("100.10"),
    ltw: D("25"),
    ltnc: D("75.1"),
    wrGrantDate: null,
    wrBets: D("0"),
    segments: ["vip_gold", "slots_lover"],
    marketingEmailSubscription: true,
    emailValidation: true,
    emailAccountActivation: "activated",
    marketingSmsSubscription: false,
    smsValidation: false,
    smsAccountActivation: null,
    wantBonus: true,
    version: 0,
    ...overrides,
  };
}

describe("toPlayerProfile", () => {
  it("maps every field into the nested shape, times as UTC ISO with milliseconds", () => {
    const p = toPlayerProfile(row());
    expect(playerProfileSchema.parse(p)).toEqual(p);
    expect(p.registration_date).toBe("2025-01-02T01:04:05.678Z");
    expect(p.ftd_date).toBe("2025-01-03T00:00:00.000Z");
    expect(p.last_login).toBe("2025-02-01T10:00:00.000Z");
    expect(p.kpi.last_deposit).toEqual({ amount: expect.anything(), date: "2025-01-05T12:00:00.500Z" });
    expect(p.kpi.last_withdrawal?.status).toBe("pending");
    expect(p.settings).toEqual({
      marketing_email_subscription: true,
      email_validation: true,
      email_account_activation: "activated",
      marketing_sms_subscription: false,
      sms_validation: false,
      sms_account_activation: null,
      want_bonus: true,
    });
    expect(p.segments).toEqual(["vip_gold", "slots_lover"]);
  });

  it("writes money with its exact digits: trailing zeros dropped, no exponent, no float drift", () => {
    const json = stringifyJson(toPlayerProfile(row()));
    for (const part of [
      '"total_balance":123456789012.12345678',
      '"cash_balance":0.3,',
      '"bonus_balance":-0.00000001',
      '"pending_withdrawal":0.00000001',
      '"withdrawable_balance":0,',
      '"wr":1500.5,',
      '"last_withdrawal":{"amount":25,"date":"2025-01-06T08:30:00.000Z","status":"pending"}',
      '"ltnc":75.1}',
    ])
      expect(json).toContain(part);
  });

  it("keeps every field present, null where unknown", () => {
    const p = toPlayerProfile(
      row({
        email: null,
        phone: null,
        language: null,
        ftdDate: null,
        lastLogin: null,
        withdrawalStatus: null,
        affiliateName: null,
        affiliateSource: null,
        vipManager: null,
        lastWithdrawalAmount: null,
        lastWithdrawalStatus: null,
        lastWithdrawalDate: null,
        lastDepositAmount: null,
        lastDepositDate: null,
        emailAccountActivation: null,
        segments: [],
      }),
    );
    const json = JSON.parse(stringifyJson(p));
    for (const key of [
      "email",
      "phone",
      "language",
      "ftd_date",
      "last_login",
      "withdrawal_status",
      "affiliate_name",
      "affiliate_source",
      "vip_manager",
    ]) {
      expect(json, key).toHaveProperty(key, null);
    }
    expect(json.kpi.last_withdrawal).toBeNull();
    expect(json.kpi.last_deposit).toBeNull();
    expect(json.settings.email_account_activation).toBeNull();
    expect(json.segments).toEqual([]);
    expect(Object.keys(json).sort()).toEqual(Object.keys(playerProfileSchema.shape).sort());
  });

  it("a withdrawal status other than pending reads as completed; half-known KPIs are null", () => {
    expect(toPlayerProfile(row({ lastWithdrawalStatus: "completed" })).kpi.last_withdrawal?.status).toBe(
      "completed",
    );
    expect(toPlayerProfile(row({ lastWithdrawalStatus: null })).kpi.last_withdrawal).toBeNull();
    expect(toPlayerProfile(row({ lastDepositDate: null })).kpi.last_deposit).toBeNull();
  });
});

describe("toPlayerSummary", () => {
  it("keeps the summary fields that tell namesakes apart", () => {
    const s = toPlayerSummary({
      ...row({ email: null }),
      lastActivity: new Date("2025-03-04T05:06:07.089Z"),
    });
    expect(playerSummarySchema.parse(s)).toEqual(s);
    expect(s).toEqual({
      id: "P1",
      name: "Ada Lovelace",
      email: null,
      phone: "+44 7000000000",
      currency: "GBP",
      language: "English",
      registration_date: "2025-01-02T01:04:05.678Z",
      last_login: "2025-02-01T10:00:00.000Z",
      last_activity: "2025-03-04T05:06:07.089Z",
      total_balance: s.total_balance,
      kyc_status: "approved",
      withdrawal_status: "allowed",
      blocked: false,
      vip_manager: "Sarah Mitchell",
    });
    expect(stringifyJson(s)).toContain('"total_balance":123456789012.12345678');
  });
});
