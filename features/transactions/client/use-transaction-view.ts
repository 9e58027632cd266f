"use client";

import { useQuery } from "@tanstack/react-query";
import type { PaginationState } from "@tanstack/react-table";
import { useSearchParams } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useMemo, useState } from "react";
import { transactionQueries } from "@/features/transactions/client/queries";
import {
  type FilterState,
  hasActiveFilters,
  ignoredTransactionParams,
  type PageSize,
  type SortValue,
  toTransactionApiQuery,
  toTransactionExportQuery,
  toTransactionFilterQuery,
  transactionSearchParams,
} from "@/features/transactions/client/transaction-url-state";
import {
  describeIgnored,
  totalsLoadAtOnce,
  transactionCaption,
  transactionOutcome,
} from "@/features/transactions/client/transaction-view";
import type { HistoryMode } from "@/platform/client/date-draft";
import { useTimeZone } from "../../../platform/ui/hooks/use-time-zone.ts";

const CLEARED = {
  event_type: null,
  event_name: null,
  created_by: null,
  status: null,
  transaction_id: null,
  from: null,
  to: null,
  page: null,
} as const;

/**
 * A player's transaction view: filters, order and page live in the URL (shareable, restored on reload,
 * back/forward step through them), the list and its facets are queried from them, times in the page's `tz`.
 */
export function useTransactionView(playerId: string) {
  const [tz] = useTimeZone();
  const [state, setState] = useQueryStates(transactionSearchParams, { history: "push", scroll: false });
  const page = Math.max(1, state.page);
  const view = { ...state, page };
  const invalidRange = Boolean(state.from && state.to && state.from > state.to);
  // Each facet counts under the other active filters: the facets take the list's filters.
  const filterQuery = toTransactionFilterQuery(view, tz);
  const facets = useQuery(transactionQueries.transactionFacets(playerId, filterQuery));
  // The totals row: the same filters, exact count and sum per currency; by itself when the daily stats answer
  // it (a drill-down's filters), else on request (row by row: about a second for a million transactions).
  const totalsQuery = filterQuery;
  const [totalsAsked, setTotalsAsked] = useState<string | null>(null);
  const totalsAtOnce = totalsLoadAtOnce(state);
  const totals = useQuery({
    ...transactionQueries.transactionTotals(playerId, totalsQuery),
    enabled: !invalidRange && (totalsAtOnce || totalsAsked === totalsQuery.toString()),
  });
  const list = useQuery({
    ...transactionQueries.transactions(playerId, toTransactionApiQuery(view, tz)),
    enabled: !invalidRange,
  });
  const pagination = useMemo(
    () => ({ pageIndex: page - 1, pageSize: state.per_page }),
    [page, state.per_page],
  );
  const data = list.data;
  const firstLoad = list.isPending && !invalidRange;

  return {
    tz,
    view,
    /** The list's filters alone (no order, no paging), as the facets and the live count take them. */
    filterQuery,
    invalidRange,
    facets,
    totals,
    // Asked for this filter (a new filter asks again, unless its totals load at once).
    totalsRequested: totalsAtOnce || totalsAsked === totalsQuery.toString(),
    requestTotals: () => setTotalsAsked(totalsQuery.toString()),
    list,
    data,
    pagination,
    active: hasActiveFilters(state),
    setPagination: (next: PaginationState) =>
      void setState({ page: next.pageIndex + 1, per_page: next.pageSize as PageSize }),
    // A new filter or another order shows a different list: start again at its first page. A date being typed
    // replaces the history entry its edit added (useDateDraft), so Back skips the keystrokes.
    setFilters: (patch: Partial<FilterState>, history: HistoryMode = "push") =>
      void setState({ ...patch, page: null }, { history }),
    setSort: (sort: SortValue) => void setState({ sort, page: null }),
    clearFilters: () => void setState(CLEARED),
    goToPage: (to: number) => void setState({ page: to }),
    firstLoad,
    refreshing: list.isPlaceholderData || (list.isFetching && !firstLoad),
    outcome: transactionOutcome({
      view,
      tz,
      invalidRange,
      failed: list.isError,
      data,
      placeholder: list.isPlaceholderData,
      lastDate: facets.data?.last_date ?? null,
    }),
    ...transactionCaption({ sort: state.sort, tz, page, perPage: state.per_page, total: data?.total }),
    exportQuery: toTransactionExportQuery(view, tz),
  };
}

/** The URL's values the view could not use (it shows its defaults instead), until dismissed. */
export function useIgnoredTransactionParams(): { ignored: string; dismiss: () => void } {
  const search = useSearchParams();
  const ignored = useMemo(
    () => describeIgnored(ignoredTransactionParams(new URLSearchParams(search.toString()))),
    [search],
  );
  const [dismissed, setDismissed] = useState<string | null>(null);
  return { ignored: dismissed === ignored ? "" : ignored, dismiss: () => setDismissed(ignored) };
}
