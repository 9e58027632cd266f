import { infiniteQueryOptions, keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { SummaryPeriod } from "@/lib/schemas/enums";
import { apiGet } from "./api-client.ts";
import {
  type AuditLogFilter,
  type AuditTrailFilter,
  auditLogSearchParams,
  auditTrailSearchParams,
  mergeAuditLogPages,
  mergeAuditPages,
} from "./audit-trail.ts";
import type {
  AuditListData,
  AuditLogData,
  MonthlyActivityData,
  PlayerPeriodSummaryData,
  PlayerProfileData,
  PlayerSearchData,
  PortfolioData,
  PortfolioManagersData,
  TransactionFacetsData,
  TransactionListData,
  TransactionTotalsData,
} from "./wire.ts";
import { WIRE_DECIMALS } from "./wire-decimals.ts";

export const SEARCH_PAGE_SIZE = 20;
const player = (id: string) => `/players/${encodeURIComponent(id)}`;

/** The API paths of the player page's first view, shared with the server that prefetches it. */
export const playerPaths = {
  profile: player,
  transactions: (id: string) => `${player(id)}/transactions`,
};

/** The lookup's first page of players matching `params`. */
const listPlayers = (params: Record<string, string>, signal: AbortSignal) =>
  apiGet<PlayerSearchData>(
    "/players",
    WIRE_DECIMALS.playerSearch,
    new URLSearchParams({ ...params, limit: String(SEARCH_PAGE_SIZE) }),
    signal,
  );

/** The portfolio's API path and query, shared with the server that prefetches it. */
export const portfolioPath = "/portfolio";
export const portfolioQuery = (manager: string) => new URLSearchParams({ manager });

/** One place for every query the pages make: the key says exactly which request it is. */
export const queries = {
  /** A VIP manager's book (GET /portfolio); sorting and the flag filter work on it in the browser. */
  portfolio: (manager: string) =>
    queryOptions({
      queryKey: ["portfolio", manager],
      queryFn: ({ signal }) =>
        apiGet<PortfolioData>(portfolioPath, WIRE_DECIMALS.portfolio, portfolioQuery(manager), signal),
      enabled: manager.length > 0,
      staleTime: 60_000,
    }),
  /** The managers an admin can choose from. */
  portfolioManagers: () =>
    queryOptions({
      queryKey: ["portfolio", "managers"],
      queryFn: ({ signal }) =>
        apiGet<PortfolioManagersData>(
          `${portfolioPath}/managers`,
          WIRE_DECIMALS.portfolioManagers,
          undefined,
          signal,
        ),
      staleTime: 5 * 60_000,
    }),
  playerSearch: (q: string) =>
    queryOptions({
      queryKey: ["players", "search", q],
      queryFn: ({ signal }) => listPlayers({ q }, signal),
      enabled: q.length > 0,
      placeholderData: keepPreviousData,
    }),
  /** The signed-in VIP manager's own players (`assigned=me`), optionally narrowed by q. */
  assignedPlayers: (q: string) =>
    queryOptions({
      queryKey: ["players", "assigned", q],
      queryFn: ({ signal }) => listPlayers({ assigned: "me", ...(q ? { q } : {}) }, signal),
      placeholderData: keepPreviousData,
    }),
  playerProfile: (playerId: string) =>
    queryOptions({
      queryKey: ["player", playerId, "profile"],
      queryFn: ({ signal }) =>
        apiGet<PlayerProfileData>(
          playerPaths.profile(playerId),
          WIRE_DECIMALS.playerProfile,
          undefined,
          signal,
        ),
    }),
  transactions: (playerId: string, query: URLSearchParams) =>
    queryOptions({
      queryKey: ["player", playerId, "transactions", query.toString()],
      queryFn: ({ signal }) =>
        apiGet<TransactionListData>(
          playerPaths.transactions(playerId),
          WIRE_DECIMALS.transactionList,
          query,
          signal,
        ),
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
          playerPaths.transactions(playerId),
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
  monthlyActivity: (playerId: string) =>
    queryOptions({
      queryKey: ["player", playerId, "monthly-activity"],
      queryFn: ({ signal }) =>
        apiGet<MonthlyActivityData>(
          `${player(playerId)}/monthly-activity`,
          WIRE_DECIMALS.monthlyActivity,
          new URLSearchParams({ months: "12" }),
          signal,
        ),
      staleTime: 5 * 60_000,
    }),
  /** The Overview's figures for one period (30d, 90d, 365d, all), exact decimals as strings. */
  playerSummary: (playerId: string, period: SummaryPeriod) =>
    queryOptions({
      queryKey: ["player", playerId, "summary", period],
      queryFn: ({ signal }) =>
        apiGet<PlayerPeriodSummaryData>(
          `${player(playerId)}/summary`,
          WIRE_DECIMALS.playerSummary,
          new URLSearchParams({ period }),
          signal,
        ),
      placeholderData: keepPreviousData,
      staleTime: 5 * 60_000,
    }),
  /** Cursor-paged, newest first; `select` reads the loaded pages as one list (see mergeAuditPages). */
  auditTrail: (playerId: string, filter: AuditTrailFilter) =>
    infiniteQueryOptions({
      queryKey: ["player", playerId, "audit", auditTrailSearchParams(filter).toString()],
      queryFn: ({ pageParam, signal }) =>
        apiGet<AuditListData>(
          `${player(playerId)}/audit`,
          WIRE_DECIMALS.auditList,
          auditTrailSearchParams(filter, pageParam),
          signal,
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
      select: mergeAuditPages,
      // Every read of the player adds to the trail (this one too): read it afresh each time it is shown.
      staleTime: 0,
    }),
  /** The admins' audit page across all players: cursor-paged like a player's trail. */
  auditLog: (filter: AuditLogFilter) =>
    infiniteQueryOptions({
      queryKey: ["audit", auditLogSearchParams(filter).toString()],
      queryFn: ({ pageParam, signal }) =>
        apiGet<AuditLogData>(
          "/audit",
          WIRE_DECIMALS.auditLog,
          auditLogSearchParams(filter, pageParam),
          signal,
        ),
      initialPageParam: null as string | null,
      getNextPageParam: (last) => last.next_cursor,
      select: mergeAuditLogPages,
      staleTime: 0,
    }),
};
