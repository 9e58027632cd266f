import { formatCount } from "@/platform/format/money";

export interface NewTransactionCountInput {
  /** The `total` of the list on screen, and when it was fetched (ms). */
  shownTotal: number | undefined;
  shownAt: number;
  /** True while the list on screen is a previous filter's placeholder. */
  placeholder: boolean;
  /** The latest total under the same filters, and when it was fetched (ms; 0 when never). */
  latestTotal: number | undefined;
  latestAt: number;
}

/**
 * How many transactions the list would gain if it were read again: the latest total under the list's filters
 * minus the total on screen. Transactions are never deleted, so a higher total means rows that arrived (the
 * order and page do not matter: `total` counts the whole filtered list). A total read before the list on screen
 * is old news (0); a lower total (a pending transaction that failed under a status filter) is no new row (0).
 */
export function newTransactionCount(input: NewTransactionCountInput): number {
  if (input.placeholder || input.shownTotal === undefined || input.latestTotal === undefined) return 0;
  if (input.latestAt <= input.shownAt) return 0;
  return Math.max(0, input.latestTotal - input.shownTotal);
}

/** "1 new transaction", "3 new transactions", "1,204 new transactions". */
export function newTransactionsLabel(count: number): string {
  return `${formatCount(count)} new transaction${count === 1 ? "" : "s"}`;
}
