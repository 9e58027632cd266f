import { parseAsStringLiteral } from "nuqs/server";
import { transactionSearchParams } from "@/features/transactions/client";
import { SUMMARY_PERIODS } from "@/platform/schemas/enums";

/** The profile page's sections, in tab order (a tab shows its name, capitalised); Audit is for admins only. */
export const PLAYER_SECTIONS = ["overview", "transactions", "activity", "audit"] as const;
export type PlayerSection = (typeof PLAYER_SECTIONS)[number];

/** `?section=` beside the transaction filters (features/transactions/client/transaction-url-state.ts) and `tz`. */
export const playerSectionSearchParams = {
  section: parseAsStringLiteral(PLAYER_SECTIONS),
};

/** The URL parameters that only the Transactions section reads: its view state, one list with the table's. */
const TRANSACTION_PARAMS = Object.keys(transactionSearchParams);

/** Whether a URL carries transaction filters or paging: such a link was shared to show the table. */
export function hasTransactionParams(search: URLSearchParams): boolean {
  return TRANSACTION_PARAMS.some((name) => search.has(name));
}

/**
 * The section to show: the one in the URL when this user has it; without one, Transactions for a link
 * with transaction filters (links shared before sections existed keep opening the table), else Overview.
 * An Audit link opened by a non-admin shows Overview: the section does not exist for them.
 */
export function resolvePlayerSection(
  requested: PlayerSection | null,
  options: { audit: boolean; search: URLSearchParams },
): PlayerSection {
  if (requested === "audit") return options.audit ? "audit" : "overview";
  if (requested) return requested;
  return hasTransactionParams(options.search) ? "transactions" : "overview";
}

/**
 * Where a key moves the selection in a row of tabs (WAI-ARIA tabs): arrows to the next or previous, wrapping
 * round; Home and End to the first and last. Undefined for any other key.
 */
export function tabAfterKey<T>(tabs: readonly T[], from: number, key: string): T | undefined {
  const last = tabs.length - 1;
  const moves: Record<string, number> = {
    ArrowRight: from === last ? 0 : from + 1,
    ArrowLeft: from === 0 ? last : from - 1,
    Home: 0,
    End: last,
  };
  return Object.hasOwn(moves, key) ? tabs[moves[key] as number] : undefined;
}

/** The sections this user has, in tab order. */
export function availablePlayerSections(audit: boolean): PlayerSection[] {
  return PLAYER_SECTIONS.filter((s) => s !== "audit" || audit);
}

/** The Overview's summary period (`?period=`), the API's values; 30 days unless the URL says otherwise. */
export const summaryPeriodSearchParams = {
  period: parseAsStringLiteral(SUMMARY_PERIODS).withDefault("30d"),
};
