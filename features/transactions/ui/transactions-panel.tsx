"use client";

import { Inbox, SearchX, TriangleAlert, X } from "lucide-react";
import { ExportButton } from "@/features/exports/client";
import {
  useIgnoredTransactionParams,
  type useTransactionView,
} from "@/features/transactions/client/use-transaction-view";
import { useTransactionsPanel } from "@/features/transactions/client/use-transactions-panel";
import { formatDate } from "@/platform/format/dates";
import { addDays } from "@/platform/format/days";
import { formatCount } from "@/platform/format/money";
import { Button } from "../../../platform/ui/button.tsx";
import { TitledCard } from "../../../platform/ui/card.tsx";
import { ErrorState } from "../../../platform/ui/error-state.tsx";
import { NewTransactionsNotice } from "./new-transactions-notice.tsx";
import { PaginationBar } from "./pagination-bar.tsx";
import { transactionColumns } from "./transaction-columns.tsx";
import { TransactionFilters } from "./transaction-filters.tsx";
import { TransactionTotalsRow } from "./transaction-totals.tsx";
import { TransactionsTableView } from "./transactions-table.tsx";

type View = ReturnType<typeof useTransactionView>;

/** A player's transactions: filters, table and pager, with their state in the URL (times in its `tz`). */
export function TransactionsPanel({ playerId }: { playerId: string }) {
  const { view: v, table, captionId, fresh } = useTransactionsPanel(playerId, transactionColumns);
  const { data, list, invalidRange } = v;
  return (
    <TitledCard
      titleId="transactions-title"
      title="Transactions"
      description={v.description}
      actions={<HeaderActions playerId={playerId} v={v} />}
    >
      <IgnoredParamsNotice />
      <TransactionFilters
        state={v.view}
        facets={v.facets.data}
        tz={v.tz}
        onChange={v.setFilters}
        onSort={v.setSort}
        onClear={v.clearFilters}
        active={v.active}
      />
      {list.isError && data ? <PageErrorBanner v={v} /> : null}
      <div className="relative">
        <NewTransactionsNotice count={fresh.count} showing={fresh.showing} onShow={fresh.show} />
        {v.outcome.kind === "table" ? (
          <TransactionsTableView
            table={table}
            caption={v.caption}
            captionId={captionId}
            loading={v.firstLoad}
            refreshing={v.refreshing}
            skeletonRows={v.view.per_page}
            tz={v.tz}
            sort={v.view.sort}
            onSort={v.setSort}
            foundId={v.view.transaction_id}
          />
        ) : (
          <OutcomeNotice v={v} />
        )}
      </div>
      <TransactionTotalsRow
        totals={v.totals}
        hidden={invalidRange}
        requested={v.totalsRequested}
        onRequest={v.requestTotals}
      />
      <div className="border-t border-slate-100">
        <PaginationBar
          table={table}
          total={invalidRange ? 0 : data?.total}
          shown={data?.transactions.length ?? 0}
          disabled={invalidRange || !data}
        />
      </div>
    </TitledCard>
  );
}

/** The header's actions: a retry when the filter options failed, and the export of this view. */
function HeaderActions({ playerId, v }: { playerId: string; v: View }) {
  return (
    <>
      {v.facets.isError ? (
        <Button size="sm" variant="ghost" onClick={() => void v.facets.refetch()}>
          Filter options failed to load: retry
        </Button>
      ) : null}
      <ExportButton
        playerId={playerId}
        query={v.exportQuery}
        total={v.list.isPlaceholderData ? undefined : v.data?.total}
        disabled={v.invalidRange || !v.data}
      />
    </>
  );
}

/** A page that failed to load while the previous one stays shown. */
function PageErrorBanner({ v }: { v: View }) {
  return (
    <div className="border-b border-slate-100">
      <ErrorState compact title="Could not load this page; showing the previous one" query={v.list} />
    </div>
  );
}

const noResults = <SearchX aria-hidden="true" className="size-6 text-slate-500" />;

/** Why the list is empty or cannot be shown, and what would help. */
function OutcomeNotice({ v }: { v: View }) {
  const { outcome } = v;
  switch (outcome.kind) {
    case "invalid-range":
      return (
        <Notice icon={noResults} title="The date range is empty">
          “From” is after “To”.{" "}
          <Button size="sm" variant="secondary" onClick={() => v.setFilters({ from: null, to: null })}>
            Clear the dates
          </Button>
        </Notice>
      );
    case "failed":
      return <ErrorState title="Could not load the transactions" query={v.list} />;
    case "no-such-id":
      return (
        <Notice
          icon={noResults}
          title={`No transaction with id “${outcome.id}” for this player${outcome.underFilters ? " under these filters" : ""}`}
        >
          Ids are exact and case-sensitive.{" "}
          <Button size="sm" variant="secondary" onClick={() => v.setFilters({ transaction_id: null })}>
            Clear the id
          </Button>
        </Notice>
      );
    case "none-in-range":
      return <NoneInRangeNotice v={v} lastDate={outcome.lastDate} lastDay={outcome.lastDay} />;
    case "no-match":
      return (
        <Notice icon={noResults} title="No transactions match these filters">
          <Button size="sm" variant="primary" onClick={v.clearFilters}>
            Clear all filters
          </Button>
        </Notice>
      );
    case "no-transactions":
      return (
        <Notice
          icon={<Inbox aria-hidden="true" className="size-6 text-slate-500" />}
          title="No transactions yet"
        >
          This player has no transactions.
        </Notice>
      );
    case "past-end":
      return (
        <Notice icon={noResults} title={`Page ${v.view.page} is past the end`}>
          There {outcome.pageCount === 1 ? "is 1 page" : `are ${formatCount(outcome.pageCount)} pages`}.{" "}
          <Button size="sm" variant="secondary" onClick={() => v.goToPage(outcome.pageCount)}>
            Go to the last page
          </Button>
        </Notice>
      );
    default:
      return null;
  }
}

/** Filters with a date range that hold nothing: the player's last day, and a range that has transactions. */
function NoneInRangeNotice({ v, lastDate, lastDay }: { v: View; lastDate: string; lastDay: string }) {
  return (
    <Notice icon={noResults} title="No transactions match these filters in this date range">
      <p>
        The player’s last transaction was on <time dateTime={lastDate}>{formatDate(lastDate, v.tz)}</time>.
      </p>
      <div className="mt-2 flex flex-wrap justify-center gap-2">
        <Button
          size="sm"
          variant="primary"
          onClick={() => v.setFilters({ from: addDays(lastDay, -29), to: lastDay })}
        >
          Show the 30 days up to {lastDay}
        </Button>
        <Button size="sm" variant="secondary" onClick={v.clearFilters}>
          Clear all filters
        </Button>
      </div>
    </Notice>
  );
}

/** Says which of the URL's values the view could not use, and that it shows its defaults instead; dismissible. */
function IgnoredParamsNotice() {
  const { ignored, dismiss } = useIgnoredTransactionParams();
  if (!ignored) return null;
  return (
    <div
      role="status"
      data-testid="ignored-params"
      className="flex items-start gap-2 border-b border-amber-200 bg-amber-50 px-4 py-2.5 text-sm text-amber-950 sm:px-5"
    >
      <TriangleAlert aria-hidden="true" className="mt-0.5 size-4 shrink-0 text-amber-700" />
      <p className="min-w-0 flex-1 break-words">
        This link had values the page cannot use, so it ignored them: <strong>{ignored}</strong>. The other
        values apply.
      </p>
      <button
        type="button"
        aria-label="Dismiss the notice about ignored values"
        onClick={dismiss}
        className="inline-flex size-6 shrink-0 items-center justify-center rounded text-amber-900 hover:bg-amber-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
      >
        <X aria-hidden="true" className="size-4" />
      </button>
    </div>
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
