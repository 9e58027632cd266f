import type { MonthlyActivityResponse } from "@/lib/schemas/activity";
import type { AuditListResponse, AuditLogResponse } from "@/lib/schemas/audit";
import type { ExactNumber } from "@/lib/schemas/exact-number";
import type { PlayerProfile, PlayerSearchResponse } from "@/lib/schemas/player";
import type { Portfolio, PortfolioManagers } from "@/lib/schemas/portfolio";
import type { PlayerSummary as PlayerPeriodSummary } from "@/lib/schemas/summary";
import type { TransactionListResponse } from "@/lib/schemas/transaction";
import type { TransactionFacets } from "@/lib/schemas/transaction-facets";
import type { TransactionTotals } from "@/lib/schemas/transaction-totals";

/**
 * A response type as the browser sees it: exact decimals arrive as strings of digits (lib/client/wire-codec.ts,
 * by the places lib/client/wire-decimals.ts derives from the same schemas).
 */
export type Wire<T> = T extends ExactNumber
  ? string
  : T extends readonly (infer U)[]
    ? Wire<U>[]
    : T extends object
      ? { [K in keyof T]: Wire<T[K]> }
      : T;

export type PlayerProfileData = Wire<PlayerProfile>;
export type PlayerSearchData = Wire<PlayerSearchResponse>;
export type PlayerSummaryData = PlayerSearchData["players"][number];
export type TransactionMatchData = PlayerSearchData["transactions"][number];
export type PlayerPeriodSummaryData = Wire<PlayerPeriodSummary>;
export type TransactionListData = Wire<TransactionListResponse>;
export type TransactionData = TransactionListData["transactions"][number];
export type TransactionFacetsData = Wire<TransactionFacets>;
export type TransactionTotalsData = Wire<TransactionTotals>;
export type MonthlyActivityData = Wire<MonthlyActivityResponse>;
export type AuditListData = Wire<AuditListResponse>;
export type AuditEventData = AuditListData["events"][number];
export type AuditLogData = Wire<AuditLogResponse>;
export type PortfolioData = Wire<Portfolio>;
export type PortfolioPlayerData = PortfolioData["players"][number];
export type PortfolioManagersData = Wire<PortfolioManagers>;
