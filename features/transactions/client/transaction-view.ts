import { SORT_LABELS } from "@/features/transactions/client/transaction-labels";
import { timeZoneLabel } from "@/platform/format/dates";
import { type TimeZoneChoice, today } from "@/platform/format/days";
import { formatCount } from "@/platform/format/money";
import {
  hasActiveFilters,
  type IgnoredParam,
  type SortValue,
  type TransactionViewState,
} from "./transaction-url-state.ts";

/** What the transaction view shows instead of (or as) its table. */
export type TransactionOutcome =
  | { kind: "invalid-range" }
  | { kind: "failed" }
  | { kind: "no-such-id"; id: string; underFilters: boolean }
  | { kind: "none-in-range"; lastDate: string; lastDay: string }
  | { kind: "no-match" }
  | { kind: "no-transactions" }
  | { kind: "past-end"; pageCount: number }
  | { kind: "table" };

export interface ListState {
  view: TransactionViewState;
  tz: TimeZoneChoice;
  invalidRange: boolean;
  /** The list's last request failed. */
  failed: boolean;
  data: { total: number; transactions: readonly unknown[] } | undefined;
  /** `data` is the previous query's, shown while this one loads. */
  placeholder: boolean;
  /** The player's newest transaction (the facets'), to offer a range that has some. */
  lastDate: string | null;
}

export const pageCountOf = (total: number | undefined, perPage: number) =>
  total === undefined ? 1 : Math.max(1, Math.ceil(total / perPage));

/** An empty list says why and what would help; a page past the end says so; otherwise the table. */
export function transactionOutcome(s: ListState): TransactionOutcome {
  const { view, data } = s;
  if (s.invalidRange) return { kind: "invalid-range" };
  if (s.failed && !data) return { kind: "failed" };
  if (!data || s.placeholder) return { kind: "table" };
  if (data.total === 0) {
    if (view.transaction_id) {
      const underFilters = hasActiveFilters({ ...view, transaction_id: null });
      return { kind: "no-such-id", id: view.transaction_id, underFilters };
    }
    if ((view.from || view.to) && s.lastDate)
      return { kind: "none-in-range", lastDate: s.lastDate, lastDay: today(s.tz, new Date(s.lastDate)) };
    return { kind: hasActiveFilters(view) ? "no-match" : "no-transactions" };
  }
  if (data.transactions.length === 0)
    return { kind: "past-end", pageCount: pageCountOf(data.total, view.per_page) };
  return { kind: "table" };
}

/** The table's caption (its order, time zone and page) and the card's description. */
export function transactionCaption(s: {
  sort: SortValue;
  tz: TimeZoneChoice;
  page: number;
  perPage: number;
  total: number | undefined;
}): { caption: string; description: string } {
  const order = SORT_LABELS[s.sort];
  const zone = timeZoneLabel(s.tz);
  const head = `Transactions, ${order}, times in ${zone}`;
  return {
    caption:
      s.total === undefined
        ? head
        : `${head}: page ${s.page} of ${pageCountOf(s.total, s.perPage)}, ${formatCount(s.total)} in all`,
    description: `${order.replace(/^./, (c) => c.toUpperCase())}. Dates and the date filter in ${zone}.`,
  };
}

/** The URL's unusable values as the notice names them (`per_page=7, sort=sideways`); "" when there are none. */
export const describeIgnored = (ignored: readonly IgnoredParam[]) =>
  ignored.map((p) => `${p.name}=${p.value}`).join(", ");

/** The event types whose amounts have one sign (the daily stats' absolute sums are then their signed sums). */
const ONE_SIGN_TYPES: readonly string[] = ["deposit", "withdrawal", "bet", "win"];

/**
 * Whether the totals row loads by itself: when the daily statistics answer it (completed transactions of
 * one-sign types, no id: GET …/transaction-totals then reads a few thousand stats rows, whatever the history).
 * Other filters are summed row by row, which for a player with a million transactions takes about a second, so
 * the row waits for a click there. The server's rule is statsCanSum (features/transactions/data/sum-player-transactions.ts).
 */
export function totalsLoadAtOnce(s: {
  event_type: readonly string[];
  status: string | null;
  transaction_id: string | null;
}): boolean {
  return (
    s.status === "completed" &&
    !s.transaction_id &&
    s.event_type.length > 0 &&
    s.event_type.every((t) => ONE_SIGN_TYPES.includes(t))
  );
}
