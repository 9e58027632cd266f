import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { TransactionListResponse } from "@/features/transactions/schema/transaction";
import type { TransactionFacets } from "@/features/transactions/schema/transaction-facets";
import type { TransactionTotals } from "@/features/transactions/schema/transaction-totals";
import { apiGet } from "../../../platform/client/api-client.ts";
import type { Wire } from "../../../platform/client/wire.ts";
import { WIRE_DECIMALS } from "../../../platform/client/wire-decimals.ts";

export type TransactionListData = Wire<TransactionListResponse>;
export type TransactionData = TransactionListData["transactions"][number];
export type TransactionFacetsData = Wire<TransactionFacets>;
export type TransactionTotalsData = Wire<TransactionTotals>;

const player = (id: string) => `/players/${encodeURIComponent(id)}`;
/** A player's transaction list path, shared with the server that prefetches the player page. */
export const transactionsPath = (id: string) => `${player(id)}/transactions`;

/** The transaction reads the pages make: the key says exactly which request it is. */
export const transactionQueries = {
  transactions: (playerId: string, query: URLSearchParams) =>
    queryOptions({
      queryKey: ["player", playerId, "transactions", query.toString()],
      queryFn: ({ signal }) =>
        apiGet<TransactionListData>(transactionsPath(playerId), WIRE_DECIMALS.transactionList, query, signal),
      placeholderData: keepPreviousData,
    }),
  /**
   * How many transactions match the list's `filters` now: a one-row page's exact `total`. Fetched only when a
   * live update says the player changed; the difference to the total shown is the "new transactions" count.
   */
  transactionTotal: (playerId: string, filters: URLSearchParams) =>
    queryOptions({
      queryKey: ["player", playerId, "transaction-total", filters.toString()],
      queryFn: async ({ signal }) => {
        const query = new URLSearchParams(filters);
        query.set("limit", "1");
        const page = await apiGet<TransactionListData>(
          transactionsPath(playerId),
          WIRE_DECIMALS.transactionList,
          query,
          signal,
        );
        return page.total;
      },
    }),
  /** `filters`: the list's filters, so that each facet counts under the others (faceted counts). */
  transactionFacets: (playerId: string, filters: URLSearchParams = new URLSearchParams()) =>
    queryOptions({
      queryKey: ["player", playerId, "transaction-facets", filters.toString()],
      queryFn: ({ signal }) =>
        apiGet<TransactionFacetsData>(
          `${player(playerId)}/transaction-facets`,
          WIRE_DECIMALS.transactionFacets,
          filters,
          signal,
        ),
      staleTime: 5 * 60_000,
      placeholderData: keepPreviousData,
    }),
  /** Count and exact sum per currency under the list's filters: the totals row under the table. */
  transactionTotals: (playerId: string, filters: URLSearchParams = new URLSearchParams()) =>
    queryOptions({
      queryKey: ["player", playerId, "transaction-totals", filters.toString()],
      queryFn: ({ signal }) =>
        apiGet<TransactionTotalsData>(
          `${player(playerId)}/transaction-totals`,
          WIRE_DECIMALS.transactionTotals,
          filters,
          signal,
        ),
      staleTime: 60_000,
      placeholderData: keepPreviousData,
    }),
};
