import { keepPreviousData, queryOptions } from "@tanstack/react-query";
import type { MonthlyActivityResponse } from "@/features/players/schema/activity";
import type { PlayerProfile, PlayerSearchResponse } from "@/features/players/schema/player";
import type { PlayerSummary as PlayerPeriodSummary } from "@/features/players/schema/summary";
import type { SummaryPeriod } from "@/platform/schemas/enums";
import { apiGet } from "../../../platform/client/api-client.ts";
import type { Wire } from "../../../platform/client/wire.ts";
import { WIRE_DECIMALS } from "../../../platform/client/wire-decimals.ts";

export type PlayerProfileData = Wire<PlayerProfile>;
export type PlayerSearchData = Wire<PlayerSearchResponse>;
export type PlayerSummaryData = PlayerSearchData["players"][number];
export type TransactionMatchData = PlayerSearchData["transactions"][number];
export type PlayerPeriodSummaryData = Wire<PlayerPeriodSummary>;
export type MonthlyActivityData = Wire<MonthlyActivityResponse>;

export const SEARCH_PAGE_SIZE = 20;
/** A player's API path; the feature's other reads hang below it. */
export const playerPath = (id: string) => `/players/${encodeURIComponent(id)}`;
const player = playerPath;

/** The lookup's first page of players matching `params`. */
const listPlayers = (params: Record<string, string>, signal: AbortSignal) =>
  apiGet<PlayerSearchData>(
    "/players",
    WIRE_DECIMALS.playerSearch,
    new URLSearchParams({ ...params, limit: String(SEARCH_PAGE_SIZE) }),
    signal,
  );

/** The player reads the pages make: the key says exactly which request it is. */
export const playerQueries = {
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
        apiGet<PlayerProfileData>(player(playerId), WIRE_DECIMALS.playerProfile, undefined, signal),
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
};
