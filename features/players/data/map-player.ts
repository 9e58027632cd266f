import type { PlayerProfile, PlayerSummary } from "@/features/players/schema/player";
import type { Player } from "@/platform/db/generated/client";
import { ExactNumber } from "@/platform/schemas/exact-number";

const exact = (d: { toFixed(): string }) => ExactNumber.from(d);
const iso = (d: Date | null) => (d ? d.toISOString() : null);

type IdentityRow = Pick<
  Player,
  "id" | "name" | "email" | "phone" | "currency" | "language" | "registrationDate"
>;

/** The fields a profile and a search result begin with. */
const identity = (p: IdentityRow) => ({
  id: p.id,
  name: p.name,
  email: p.email,
  phone: p.phone,
  currency: p.currency,
  language: p.language,
  registration_date: p.registrationDate.toISOString(),
});

/** Database row → the spec's nested profile shape; every field present, null where unknown. */
export function toPlayerProfile(p: Player): PlayerProfile {
  return {
    ...identity(p),
    ftd_date: iso(p.ftdDate),
    last_login: iso(p.lastLogin),
    kyc_status: p.kycStatus,
    withdrawal_status: p.withdrawalStatus,
    affiliate_name: p.affiliateName,
    affiliate_source: p.affiliateSource,
    vip_manager: p.vipManager,
    blocked: p.blocked,
    balances: {
      total_balance: exact(p.totalBalance),
      cash_balance: exact(p.cashBalance),
      bonus_balance: exact(p.bonusBalance),
      withdrawable_balance: exact(p.withdrawableBalance),
      pending_withdrawal: exact(p.pendingWithdrawal),
    },
    kpi: {
      active_bonus: p.activeBonus,
      wr: exact(p.wr),
      last_withdrawal:
        p.lastWithdrawalAmount !== null && p.lastWithdrawalStatus !== null && p.lastWithdrawalDate !== null
          ? {
              amount: exact(p.lastWithdrawalAmount),
              date: p.lastWithdrawalDate.toISOString(),
              status: p.lastWithdrawalStatus === "pending" ? "pending" : "completed",
            }
          : null,
      last_deposit:
        p.lastDepositAmount !== null && p.lastDepositDate !== null
          ? { amount: exact(p.lastDepositAmount), date: p.lastDepositDate.toISOString() }
          : null,
      ltd: exact(p.ltd),
      ltw: exact(p.ltw),
      ltnc: exact(p.ltnc),
    },
    segments: p.segments,
    settings: {
      marketing_email_subscription: p.marketingEmailSubscription,
      email_validation: p.emailValidation,
      email_account_activation: p.emailAccountActivation,
      marketing_sms_subscription: p.marketingSmsSubscription,
      sms_validation: p.smsValidation,
      sms_account_activation: p.smsAccountActivation,
      want_bonus: p.wantBonus,
    },
    updated_at: p.updatedAt.toISOString(),
  };
}

/** The columns a search result reads (features/players/data/search-players.ts), named as the Prisma model names them. */
export type PlayerSummaryRow = IdentityRow &
  Pick<Player, "lastLogin" | "totalBalance" | "kycStatus" | "withdrawalStatus" | "blocked" | "vipManager"> & {
    lastActivity: Date | null;
  };

export function toPlayerSummary(p: PlayerSummaryRow): PlayerSummary {
  return {
    ...identity(p),
    last_login: iso(p.lastLogin),
    last_activity: iso(p.lastActivity),
    total_balance: exact(p.totalBalance),
    kyc_status: p.kycStatus,
    withdrawal_status: p.withdrawalStatus,
    blocked: p.blocked,
    vip_manager: p.vipManager,
  };
}
