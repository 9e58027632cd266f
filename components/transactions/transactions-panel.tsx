"use client";

import { useQuery } from "@tanstack/react-query";
import { Inbox, SearchX } from "lucide-react";
import { useQueryStates } from "nuqs";
import { useId, useMemo } from "react";
import { queries } from "@/lib/client/queries";
import {
  hasActiveFilters,
  type TimeZoneChoice,
  toTransactionApiQuery,
  toTransactionExportQuery,
  transactionSearchParams,
} from "@/lib/client/transaction-url-state";
import { timeZoneLabel } from "@/lib/format/dates";
import { formatCount } from "@/lib/format/money";
import { ErrorState } from "../error-state.tsx";
import { Button } from "../ui/button.tsx";
import { Card, CardHeader } from "../ui/card.tsx";
import { ExportButton } from "./export-button.tsx";
import { PaginationBar } from "./pagination-bar.tsx";
import { type FilterPatch, TransactionFilters } from "./transaction-filters.tsx";
import { TransactionsTableView, useTransactionsTable } from "./transactions-table.tsx";

const CLEARED = {
  event_type: null,
  event_name: null,
  created_by: null,
  from: null,
  to: null,
  page: null,
} as const;

export function TransactionsPanel({ playerId, tz }: { playerId: string; tz: TimeZoneChoice }) {
  // Filters and page live in the URL: shareable, restored on reload, and back/forward step through them.
  const [state, setState] = useQueryStates(transactionSearchParams, { history: "push", scroll: false });
  const page = Math.max(1, state.page);
  const view = { ...state, page };
  const invalidRange = Boolean(state.from && state.to && state.from > state.to);
  const apiQuery = toTransactionApiQuery(view, tz);
  const facets = useQuery(queries.transactionFacets(playerId));
  const list = useQuery({ ...queries.transactions(playerId, apiQuery), enabled: !invalidRange });
  const captionId = useId();

  const pagination = useMemo(
    () => ({ pageIndex: page - 1, pageSize: state.per_page }),
    [page, state.per_page],
  );
  const data = list.data;
  const table = useTransactionsTable({
    rows: data?.transactions,
    total: data?.total,
    pagination,
    tz,
    onPaginationChange: (next) =>
      void setState({ page: next.pageIndex + 1, per_page: next.pageSize as (typeof state)["per_page"] }),
  });

  const active = hasActiveFilters(state);
  // A new filter shows a different list: start again at its first page.
  const setFilters = (patch: FilterPatch) => void setState({ ...patch, page: null });
  const clearFilters = () => void setState(CLEARED);

  const firstLoad = list.isPending && !invalidRange;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / state.per_page)) : 1;
  const pastEnd = data && data.total > 0 && data.transactions.length === 0 && !list.isPlaceholderData;
  const caption = data
    ? `Transactions, newest first, times in ${timeZoneLabel(tz)}: page ${page} of ${pageCount}, ${formatCount(data.total)} in all`
    : `Transactions, newest first, times in ${timeZoneLabel(tz)}`;

  let body: React.ReactNode;
  if (invalidRange) {
    body = (
      <Notice
        icon={<SearchX aria-hidden="true" className="size-6 text-slate-500" />}
        title="The date range is empty"
      >
        “From” is after “To”.{" "}
        <Button size="sm" variant="secondary" onClick={() => setFilters({ from: null, to: null })}>
          Clear the dates
        </Button>
      </Notice>
    );
  } else if (list.isError && !data) {
    body = (
      <ErrorState
        title="Could not load the transactions"
        error={list.error}
        onRetry={() => void list.refetch()}
        retrying={list.isFetching}
      />
    );
  } else if (data && data.total === 0 && !list.isPlaceholderData) {
    body = active ? (
      <Notice
        icon={<SearchX aria-hidden="true" className="size-6 text-slate-500" />}
        title="No transactions match these filters"
      >
        <Button size="sm" variant="primary" onClick={clearFilters}>
          Clear all filters
        </Button>
      </Notice>
    ) : (
      <Notice
        icon={<Inbox aria-hidden="true" className="size-6 text-slate-500" />}
        title="No transactions yet"
      >
        This player has no transactions.
      </Notice>
    );
  } else if (pastEnd) {
    body = (
      <Notice
        icon={<SearchX aria-hidden="true" className="size-6 text-slate-500" />}
        title={`Page ${page} is past the end`}
      >
        There {pageCount === 1 ? "is 1 page" : `are ${formatCount(pageCount)} pages`}.{" "}
        <Button size="sm" variant="secondary" onClick={() => void setState({ page: pageCount })}>
          Go to the last page
        </Button>
      </Notice>
    );
  } else {
    body = (
      <TransactionsTableView
        table={table}
        caption={caption}
        captionId={captionId}
        loading={firstLoad}
        refreshing={list.isPlaceholderData || (list.isFetching && !firstLoad)}
        skeletonRows={state.per_page}
        tz={tz}
      />
    );
  }

  return (
    <Card aria-labelledby="transactions-title">
      <CardHeader
        titleId="transactions-title"
        title="Transactions"
        description={`Newest first. Dates and the date filter in ${timeZoneLabel(tz)}.`}
        actions={
          <>
            {facets.isError ? (
              <Button size="sm" variant="ghost" onClick={() => void facets.refetch()}>
                Filter options failed to load: retry
              </Button>
            ) : null}
            <ExportButton
              playerId={playerId}
              query={toTransactionExportQuery(view, tz)}
              total={list.isPlaceholderData ? undefined : data?.total}
              disabled={invalidRange || !data}
            />
          </>
        }
      />
      <TransactionFilters
        state={view}
        facets={facets.data}
        tz={tz}
        onChange={setFilters}
        onClear={clearFilters}
        active={active}
      />
      {list.isError && data ? (
        <div className="border-b border-slate-100">
          <ErrorState
            compact
            title="Could not load this page; showing the previous one"
            error={list.error}
            onRetry={() => void list.refetch()}
            retrying={list.isFetching}
          />
        </div>
      ) : null}
      {body}
      <div className="border-t border-slate-100">
        <PaginationBar
          table={table}
          total={invalidRange ? 0 : data?.total}
          shown={data?.transactions.length ?? 0}
          disabled={invalidRange || !data}
        />
      </div>
    </Card>
  );
}

function Notice({
  icon,
  title,
  children,
}: {
  icon: React.ReactNode;
  title: string;
  children: React.ReactNode;
}) {
  return (
    <div
      className="flex min-h-64 flex-col items-center justify-center gap-2 px-4 py-10 text-center"
      role="status"
    >
      {icon}
      <p className="font-semibold text-slate-900">{title}</p>
      <div className="text-sm text-slate-700">{children}</div>
    </div>
  );
}
