import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import { apiGet } from "./api-client.ts";
import type {
  MonthlyActivityData,
  PlayerProfileData,
  PlayerSearchData,
  TransactionFacetsData,
  TransactionListData,
} from "./wire.ts";

export const SEARCH_PAGE_SIZE = 20;
const player = (id: string) => `/players/${encodeURIComponent(id)}`;

/** One place for every query the pages make: the key says exactly which request it is. */
export const queries = {
  playerSearch: (q: string) =>
    queryOptions({
      queryKey: ["players", "search", q],
      queryFn: ({ signal }) =>
        apiGet<PlayerSearchData>(
          "/players",
          new URLSearchParams({ q, limit: String(SEARCH_PAGE_SIZE) }),
          signal,
        ),
      enabled: q.length > 0,
      placeholderData: keepPreviousData,
    }),
  playerProfile: (playerId: string) =>
    queryOptions({
      queryKey: ["player", playerId, "profile"],
      queryFn: ({ signal }) => apiGet<PlayerProfileData>(player(playerId), undefined, signal),
    }),
  transactions: (playerId: string, query: URLSearchParams) =>
    queryOptions({
      queryKey: ["player", playerId, "transactions", query.toString()],
      queryFn: ({ signal }) => apiGet<TransactionListData>(`${player(playerId)}/transactions`, query, signal),
      placeholderData: keepPreviousData,
    }),
  transactionFacets: (playerId: string) =>
    queryOptions({
      queryKey: ["player", playerId, "transaction-facets"],
      queryFn: ({ signal }) =>
        apiGet<TransactionFacetsData>(`${player(playerId)}/transaction-facets`, undefined, signal),
      staleTime: 5 * 60_000,
    }),
  monthlyActivity: (playerId: string) =>
    queryOptions({
      queryKey: ["player", playerId, "monthly-activity"],
      queryFn: ({ signal }) =>
        apiGet<MonthlyActivityData>(
          `${player(playerId)}/monthly-activity`,
          new URLSearchParams({ months: "12" }),
          signal,
        ),
      staleTime: 5 * 60_000,
    }),
};
