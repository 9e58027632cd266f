/*
 * The closed value sets of the API, without zod, so the browser bundle can use them; the zod enums in
 * player.ts and transaction.ts are built from these very arrays.
 */
export const KYC_STATUSES = ["not_started", "pending", "in_review", "approved", "rejected"] as const;
export type KycStatus = (typeof KYC_STATUSES)[number];

export const EVENT_TYPES = ["deposit", "withdrawal", "bonus", "bet", "win", "adjustment", "refund"] as const;

export const CREATORS = ["System", "VIP Manager", "Admin"] as const;

/** The period summary's periods: the last N UTC days, today included, or the player's whole history. */
export const SUMMARY_PERIODS = ["30d", "90d", "365d", "all"] as const;
export type SummaryPeriod = (typeof SUMMARY_PERIODS)[number];

/** What an audit record says was read. */
export const AUDIT_OPERATIONS = [
  "profile",
  "transactions",
  "search",
  "export",
  "transaction_facets",
  "monthly_activity",
  "summary",
  "transaction_totals",
  "audit_trail",
] as const;
