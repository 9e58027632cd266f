"use client";

import { type UseQueryResult, useQuery, useQueryClient } from "@tanstack/react-query";
import { createContext, use, useEffect, useRef, useState } from "react";
import { followPlayerChanges, type LiveStatus } from "@/features/live/client/live-updates";
import { newTransactionCount, transactionQueries } from "@/features/transactions/client";
import { coalesce } from "@/platform/client/coalesce";

export interface LiveUpdates {
  status: LiveStatus;
  /** Grows by one at each refresh a nudge caused: 0 until the first. */
  generation: number;
}

/** At most one refresh a second, however often the player changes. */
const REFRESH_INTERVAL_MS = 1_000;

/** The queries a change makes stale: the figures refresh in place. The list is not among them (see below). */
const REFRESHED = ["profile", "summary", "monthly-activity", "transaction-total"] as const;

export const LiveUpdatesContext = createContext<LiveUpdates>({ status: "paused", generation: 0 });

/** The player page's live updates, from the nearest PlayerProfile. */
export function useLiveUpdates(): LiveUpdates {
  return use(LiveUpdatesContext);
}

/**
 * Follows the player's changes while the page is open: each nudge (coalesced to one a second) refreshes the
 * profile, balances, KPIs, period summary and activity chart in place, and the count of new transactions. The
 * transaction list itself is never re-read by a nudge: rows stay where they are until the user asks for the new
 * ones (useNewTransactions).
 */
export function usePlayerLiveUpdates(playerId: string, enabled = true): LiveUpdates {
  const queryClient = useQueryClient();
  const [status, setStatus] = useState<LiveStatus>(enabled ? "connecting" : "paused");
  const [generation, setGeneration] = useState(0);
  useEffect(() => {
    if (!enabled) return;
    const refresh = coalesce(() => {
      for (const part of REFRESHED)
        void queryClient.invalidateQueries({ queryKey: ["player", playerId, part] });
      setGeneration((g) => g + 1);
    }, REFRESH_INTERVAL_MS);
    const stop = followPlayerChanges({
      playerId,
      onStatus: setStatus,
      onChange: refresh.trigger,
      onResync: refresh.trigger,
    });
    return () => {
      stop();
      refresh.cancel();
    };
  }, [playerId, queryClient, enabled]);
  return { status, generation };
}

export interface UseNewTransactionsOptions {
  playerId: string;
  /** The list's filters (no order or paging). */
  filters: URLSearchParams;
  /** The list on screen. */
  list: UseQueryResult<{ total: number }>;
  enabled: boolean;
}

/**
 * How many transactions arrived under the list's filters since the list on screen was read, and `show`, which
 * reads the list again (the only way new rows enter it). The count is a one-row read of the same filters, made
 * only after a nudge that came after the list was read: opening a page or changing a filter costs nothing more.
 */
export function useNewTransactions({ playerId, filters, list, enabled }: UseNewTransactionsOptions) {
  const { generation } = useLiveUpdates();
  // The generation when the list on screen was read: a nudge counts only if it came later.
  const baseline = useRef({ at: -1, generation: 0 });
  if (baseline.current.at !== list.dataUpdatedAt) {
    baseline.current = { at: list.dataUpdatedAt, generation };
  }
  const latest = useQuery({
    ...transactionQueries.transactionTotal(playerId, filters),
    enabled: enabled && list.isSuccess && generation > baseline.current.generation,
  });
  const count = newTransactionCount({
    shownTotal: list.data?.total,
    shownAt: list.dataUpdatedAt,
    placeholder: list.isPlaceholderData,
    latestTotal: latest.data,
    latestAt: latest.dataUpdatedAt,
  });
  return { count, showing: list.isRefetching, show: () => void list.refetch() };
}
