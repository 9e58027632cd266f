"use client";

import { useQuery } from "@tanstack/react-query";
import { Inbox, SearchX, TriangleAlert, X } from "lucide-react";
import { useSearchParams } from "next/navigation";
import { useQueryStates } from "nuqs";
import { useId, useMemo, useState } from "react";
import { queries } from "@/lib/client/queries";
import {
  addDays,
  hasActiveFilters,
  type IgnoredParam,
  ignoredTransactionParams,
  type SortValue,
  today,
  toTransactionApiQuery,
  toTransactionExportQuery,
  toTransactionFilterQuery,
  transactionSearchParams,
} from "@/lib/client/transaction-url-state";
import { formatDate, timeZoneLabel } from "@/lib/format/dates";
import { formatCount } from "@/lib/format/money";
import { useTimeZone } from "@/lib/hooks/use-time-zone";
import { ErrorState } from "../error-state.tsx";
import { Button } from "../ui/button.tsx";
import { Card, CardHeader } from "../ui/card.tsx";
import { ExportButton } from "./export-button.tsx";
import { PaginationBar } from "./pagination-bar.tsx";
import { type FilterPatch, SORT_LABELS, TransactionFilters } from "./transaction-filters.tsx";
import { TransactionsTableView, useTransactionsTable } from "./transactions-table.tsx";

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

/** A player's transactions: filters, table and pager, with their state in the URL (times in its `tz`). */
export function TransactionsPanel({ playerId }: { playerId: string }) {
  const [tz] = useTimeZone();
  // Filters and page live in the URL: shareable, restored on reload, and back/forward step through them.
  const [state, setState] = useQueryStates(transactionSearchParams, { history: "push", scroll: false });
  const page = Math.max(1, state.page);
  const view = { ...state, page };
  const invalidRange = Boolean(state.from && state.to && state.from > state.to);
  const apiQuery = toTransactionApiQuery(view, tz);
  // Each facet counts under the other active filters: the facets take the list's filters.
  const facets = useQuery(queries.transactionFacets(playerId, toTransactionFilterQuery(view, tz)));
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
  // Another order shows other rows first: start again at its first page.
  const setSort = (sort: SortValue) => void setState({ sort, page: null });

  const firstLoad = list.isPending && !invalidRange;
  const pageCount = data ? Math.max(1, Math.ceil(data.total / state.per_page)) : 1;
  const pastEnd = data && data.total > 0 && data.transactions.length === 0 && !list.isPlaceholderData;
  const order = SORT_LABELS[state.sort];
  const caption = data
    ? `Transactions, ${order}, times in ${timeZoneLabel(tz)}: page ${page} of ${pageCount}, ${formatCount(data.total)} in all`
    : `Transactions, ${order}, times in ${timeZoneLabel(tz)}`;
  const lastDate = facets.data?.last_date ?? null;

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
  } else if (data && data.total === 0 && !list.isPlaceholderData && state.transaction_id) {
    body = (
      <Notice
        icon={<SearchX aria-hidden="true" className="size-6 text-slate-500" />}
        title={`No transaction with id “${state.transaction_id}” for this player${active && hasActiveFilters({ ...view, transaction_id: null }) ? " under these filters" : ""}`}
      >
        Ids are exact and case-sensitive.{" "}
        <Button size="sm" variant="secondary" onClick={() => setFilters({ transaction_id: null })}>
          Clear the id
        </Button>
      </Notice>
    );
  } else if (data && data.total === 0 && !list.isPlaceholderData && (state.from || state.to) && lastDate) {
    const lastDay = today(tz, new Date(lastDate));
    body = (
      <Notice
        icon={<SearchX aria-hidden="true" className="size-6 text-slate-500" />}
        title="No transactions match these filters in this date range"
      >
        <p>
          The player’s last transaction was on <time dateTime={lastDate}>{formatDate(lastDate, tz)}</time>.
        </p>
        <div className="mt-2 flex flex-wrap justify-center gap-2">
          <Button
            size="sm"
            variant="primary"
            onClick={() => setFilters({ from: addDays(lastDay, -29), to: lastDay })}
          >
            Show the 30 days up to {lastDay}
          </Button>
          <Button size="sm" variant="secondary" onClick={clearFilters}>
            Clear all filters
          </Button>
        </div>
      </Notice>
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
        sort={state.sort}
        onSort={setSort}
      />
    );
  }

  return (
    <Card aria-labelledby="transactions-title">
      <CardHeader
        titleId="transactions-title"
        title="Transactions"
        description={`${order.replace(/^./, (c) => c.toUpperCase())}. Dates and the date filter in ${timeZoneLabel(tz)}.`}
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
      <IgnoredParamsNotice />
      <TransactionFilters
        state={view}
        facets={facets.data}
        tz={tz}
        onChange={setFilters}
        onSort={setSort}
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

/** Says which of the URL's values the view could not use, and that it shows its defaults instead; dismissible. */
function IgnoredParamsNotice() {
  const search = useSearchParams();
  const ignored = useMemo(() => ignoredTransactionParams(new URLSearchParams(search.toString())), [search]);
  const key = describeIgnored(ignored);
  const [dismissed, setDismissed] = useState<string | null>(null);
  if (ignored.length === 0 || dismissed === key) return null;
  return (
    <div
      role="status"
      data-testid="ignored-params"
      className="flex items-start gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-950 sm:px-5"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
      <p className="min-w-0 flex-1 break-words">
        This link had values the page cannot use, so it ignored them: <strong>{key}</strong>. The other values
        apply.
      </p>
      <button
        type="button"
        aria-label="Dismiss the notice about ignored values"
        onClick={() => setDismissed(key)}
        className="inline-flex size-6 shrink-0 items-center justify-center rounded text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
  );
}

const describeIgnored = (ignored: IgnoredParam[]) => ignored.map((p) => `${p.name}=${p.value}`).join(", ");

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
