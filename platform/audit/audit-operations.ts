/*
 * What the audit trail says was read: one entry per operation a read declares (`audit: { operation }` in its
 * definition). The entry is the operation's one place: its name, its words on the audit pages, and its meaning
 * in the API's reference. The schema's enum (features/audit/schema/audit.ts), the filters' and the pages' options and
 * labels (features/audit/client/audit-trail.ts, features/audit/client/audit-labels.ts, features/audit/ui) are all derived from it. No imports:
 * the browser bundle uses it.
 *
 * The database keeps the list too, as the enum `audit_operation` (docs/decisions.md, "Audit operations"): a new
 * operation is a data-model change, with its migration (`ALTER TYPE audit_operation ADD VALUE`);
 * audit-operations.int.test.ts fails while the two lists differ.
 */

export interface AuditOperationEntry {
  /** What the audit pages say a record of it was ("Viewed profile"). */
  label: string;
  /**
   * How a grouped page view lists it ("Viewed the profile: profile, facets"), and where (`rank`: the order a
   * page shows its parts, not their order of arrival). Absent: listed by its name, last.
   */
  short?: { text: string; rank: number };
  /** Its meaning, in the API reference's AuditOperation description. */
  description: string;
}

/** Every operation, in the API's order (the OpenAPI enum's). */
export const AUDIT_OPERATION_ENTRIES = {
  profile: {
    label: "Viewed profile",
    short: { text: "profile", rank: 0 },
    description: "a player's profile (one record per profile of a batch read)",
  },
  transactions: {
    label: "Listed transactions",
    short: { text: "transactions", rank: 1 },
    description: "a page of a player's transactions",
  },
  search: {
    label: "Found in a search",
    short: { text: "search", rank: 2 },
    description: "a player search (the players it found in `result_player_ids`)",
  },
  export: {
    label: "Exported transactions",
    short: { text: "export", rank: 3 },
    description: "an export of a player's transactions",
  },
  transaction_facets: {
    label: "Viewed the transaction filter values",
    short: { text: "facets", rank: 4 },
    description: "the event names, creators and date span of a player's transactions",
  },
  monthly_activity: {
    label: "Viewed the monthly activity",
    short: { text: "activity", rank: 5 },
    description: "a player's amounts per month",
  },
  summary: {
    label: "Viewed the period summary",
    short: { text: "summary", rank: 6 },
    description: "a player's figures for a period",
  },
  portfolio: {
    label: "Listed in a VIP manager's portfolio",
    short: { text: "portfolio", rank: 11 },
    description: "a VIP manager's book (its players in `result_player_ids`)",
  },
  transaction_totals: {
    label: "Viewed the transaction totals",
    short: { text: "totals", rank: 12 },
    description: "the count and sum of a player's transactions under filters",
  },
  live_updates: {
    label: "Followed live updates",
    short: { text: "live updates", rank: 7 },
    description:
      "the opening of a stream of nudges when the player's data changes (one record per stream, none per nudge)",
  },
  changes: {
    label: "Named in the change feed",
    short: { text: "change feed", rank: 8 },
    description: "a page of the change feed (the players it names in `result_player_ids`)",
  },
  profiles_export: {
    label: "Exported in a profiles export",
    short: { text: "profiles export", rank: 9 },
    description:
      "a batch of full profiles sent by the profiles export (one record per batch, its players in `result_player_ids`; the records of one export share its `request_id`)",
  },
  transactions_bulk: {
    label: "Transactions copied by a bulk read",
    short: { text: "bulk transactions", rank: 10 },
    description:
      "a page of `GET /transactions` (every player's transactions, or named ones; its players in `result_player_ids`)",
  },
  audit_trail: {
    label: "Viewed the audit trail",
    short: { text: "audit trail", rank: 13 },
    description: "a read of this trail",
  },
  webhook_events: {
    label: "Named in the webhook events read",
    description: "a page of `GET /webhook-events` (the players its bodies name in `result_player_ids`)",
  },
} as const satisfies Record<string, AuditOperationEntry>;

export type AuditOperationName = keyof typeof AUDIT_OPERATION_ENTRIES;

/** The operations' names, in the API's order. */
export const AUDIT_OPERATION_NAMES = Object.keys(AUDIT_OPERATION_ENTRIES) as [
  AuditOperationName,
  ...AuditOperationName[],
];
