/*
 * The closed value sets of the API, without zod, so the browser bundle can use them; the zod enums in
 * player.ts and transaction.ts are built from these very arrays.
 */
import { AUDIT_OPERATION_NAMES } from "@/platform/audit/audit-operations";

export const KYC_STATUSES = ["not_started", "pending", "in_review", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const EVENT_TYPES = ["deposit", "withdrawal", "bonus", "bet", "win", "adjustment", "refund"] as const;

export const CREATORS = ["System", "VIP Manager", "Admin"] as const;

/** The period summary's periods: the last N UTC days, today included, or the player's whole history. */
export const SUMMARY_PERIODS = ["30d", "90d", "365d", "all"] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];

/** What an audit record says was read: derived from the operations' entries (platform/audit/audit-operations.ts). */
export const AUDIT_OPERATIONS = AUDIT_OPERATION_NAMES;

/** The portfolio's flags, in the order a row lists them (features/portfolio/data/get-portfolio.ts). */
export const PORTFOLIO_FLAGS = [
  "churn_risk",
  "big_withdrawal",
  "pending_withdrawal_24h",
  "deposit_spike",
] as const;
export type PortfolioFlag = (typeof PORTFOLIO_FLAGS)[number];
