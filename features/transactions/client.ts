/** What other features' browser code may use of this feature (docs/architecture.md): no server-only module, no zod. */
export { drillDownHref, monthDays, periodDays } from "./client/drill-down.ts";
export { newTransactionCount } from "./client/new-transactions.ts";
export { transactionQueries } from "./client/queries.ts";
export type { EventTypeValue } from "./client/transaction-url-state.ts";
export { transactionSearchParams } from "./client/transaction-url-state.ts";
export { useRowDetails } from "./client/use-row-details.ts";
export { BlockedBadge, KycBadge, WithdrawalBadge } from "./ui/status-badges.tsx";
