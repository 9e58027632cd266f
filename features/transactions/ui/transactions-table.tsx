"use client";

import { Fragment } from "react";
import type { TransactionData } from "@/features/transactions/client/queries";
import type { SortValue } from "@/features/transactions/client/transaction-url-state";
import { useRowDetails } from "@/features/transactions/client/use-row-details";
import type { TransactionsTable } from "@/features/transactions/client/use-transactions-table";
import { formatDate, formatTime, timeZoneLabel } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { EVENT_TYPE_LABELS } from "@/platform/format/labels";
import { cn } from "@/platform/ui/cn";
import { Badge } from "../../../platform/ui/badge.tsx";
import { ScrollRegion } from "../../../platform/ui/scroll-region.tsx";
import { Skeleton } from "../../../platform/ui/skeleton.tsx";
import { ColumnHeading, TableHead } from "../../../platform/ui/table-head.tsx";
import {
  AmountText,
  cellClass,
  detailsId,
  headerClass,
  RowDetailsContext,
  StatusText,
} from "./transaction-columns.tsx";

/** The found transaction's row or card: a left bar and a tint beside the marker's words. */
const FOUND_ROW = "bg-amber-50 shadow-[inset_4px_0_0_theme(--color-amber-500)] hover:bg-amber-50";

/**
 * The words that mark the transaction the lookup found by its id (the URL's `transaction_id`), so the mark is
 * never colour alone; the row or card also carries aria-current.
 */
function FoundMarker({ id, className }: { id: string; className?: string }) {
  return (
    <Badge tone="warning" className={className}>
      <span data-testid="found-transaction-marker">Found by id</span>
      <span className="sr-only">: transaction {id}</span>
    </Badge>
  );
}

/** Below 768 px a table of nine columns is hard to read: each transaction becomes a small card. */
function TransactionCards({
  rows,
  tz,
  loading,
  skeletonRows,
  foundId,
}: {
  rows: TransactionData[];
  tz: TimeZoneChoice;
  loading: boolean;
  skeletonRows: number;
  foundId: string | null;
}) {
  if (loading) {
    return (
      <ul aria-hidden="true" className="divide-y divide-slate-100">
        {Array.from({ length: skeletonRows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
          <li key={i} className="h-28 space-y-2 px-4 py-3">
            <Skeleton className="h-4 w-40" />
            <Skeleton className="h-4 w-56" />
            <Skeleton className="h-3 w-48" />
          </li>
        ))}
      </ul>
    );
  }
  const zone = timeZoneLabel(tz);
  return (
    <ul className="divide-y divide-slate-100">
      {rows.map((t) => (
        <li
          key={t.id}
          className={cn("px-4 py-3 text-sm", t.id === foundId && FOUND_ROW)}
          data-testid="transaction-card"
          data-transaction-id={t.id}
          aria-current={t.id === foundId ? "true" : undefined}
        >
          {t.id === foundId ? <FoundMarker id={t.id} className="mb-1.5" /> : null}
          <div className="flex items-start justify-between gap-3">
            <p className="font-medium text-slate-900">
              {EVENT_TYPE_LABELS[t.event_type] ?? t.event_type} · {t.event_name}
            </p>
            <p className="whitespace-nowrap">
              <AmountText amount={t.amount} currency={t.currency} status={t.status} />
            </p>
          </div>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-slate-700">
            <dt className="text-slate-600">Date</dt>
            <dd>
              <time dateTime={t.date}>
                {formatDate(t.date, tz)}, {formatTime(t.date, tz)} {zone}
              </time>
            </dd>
            {t.event_note ? (
              <>
                <dt className="text-slate-600">Note</dt>
                <dd className="break-words">{t.event_note}</dd>
              </>
            ) : null}
            {t.payment_method ? (
              <>
                <dt className="text-slate-600">Payment</dt>
                <dd>{t.payment_method}</dd>
              </>
            ) : null}
            <dt className="text-slate-600">Status</dt>
            <dd>
              <StatusText status={t.status} />
            </dd>
          </dl>
          {/* Created and completed, as the table's details row has them: a native disclosure, keyboard-ready. */}
          <details className="mt-1 text-slate-700">
            <summary className="cursor-pointer text-slate-600">Created and completed</summary>
            <TransactionDetails t={t} tz={tz} />
          </details>
        </li>
      ))}
    </ul>
  );
}

/** A sortable column's heading: a button that sorts by it (newest/largest first, then the reverse). */
/** A row's details: the instants and ids the compact row leaves out. */
function TransactionDetails({ t, tz }: { t: TransactionData; tz: TimeZoneChoice }) {
  const zone = timeZoneLabel(tz);
  const at = (iso: string) => (
    <time dateTime={iso}>
      {formatDate(iso, tz)}, {formatTime(iso, tz)} {zone}
    </time>
  );
  return (
    <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 text-sm text-slate-800 sm:grid-cols-[auto_1fr_auto_1fr]">
      <dt className="text-slate-600">Transaction id</dt>
      <dd className="font-mono">{t.id}</dd>
      <dt className="text-slate-600">Date</dt>
      <dd>{at(t.date)}</dd>
      <dt className="text-slate-600">Created</dt>
      <dd>
        {at(t.created_at)} by {t.created_by}
      </dd>
      <dt className="text-slate-600">Completed</dt>
      <dd>{t.completed_at ? at(t.completed_at) : <StatusText status={t.status} />}</dd>
    </dl>
  );
}

export function TransactionsTableView({
  table,
  caption,
  loading,
  refreshing,
  skeletonRows,
  captionId,
  tz,
  sort,
  onSort,
  foundId = null,
}: {
  table: TransactionsTable;
  caption: string;
  loading: boolean;
  refreshing: boolean;
  skeletonRows: number;
  captionId: string;
  tz: TimeZoneChoice;
  sort: SortValue;
  onSort: (sort: SortValue) => void;
  /** The transaction the lookup found by its id (the URL's filter): its row is marked. */
  foundId?: string | null;
}) {
  const details = useRowDetails();
  // Placeholder rows get one cell per column, so they line up with the headings whatever the columns are.
  const columns = table.getAllLeafColumns();
  const rows = table.getRowModel().rows.map((r) => r.original);
  return (
    <div className="relative">
      {refreshing ? <RefreshBar /> : null}
      <div
        className={cn("md:hidden", refreshing && "opacity-60 transition-opacity")}
        aria-busy={loading || refreshing}
      >
        <p className="sr-only">{caption}</p>
        <TransactionCards
          rows={rows}
          tz={tz}
          loading={loading}
          skeletonRows={Math.min(skeletonRows, 20)}
          foundId={foundId}
        />
      </div>
      <ScrollRegion aria-labelledby={captionId} className="hidden md:block">
        <RowDetailsContext value={details}>
          <table
            className="w-full min-w-[1000px] border-collapse text-left text-sm"
            aria-busy={loading || refreshing}
          >
            <caption id={captionId} className="sr-only">
              {caption}
            </caption>
            <TransactionsHead table={table} sort={sort} onSort={onSort} />
            <tbody className={cn(refreshing && "opacity-60 transition-opacity")}>
              {loading ? (
                <SkeletonRows count={skeletonRows} columns={columns} />
              ) : (
                <TransactionRows table={table} isOpen={details.isOpen} tz={tz} foundId={foundId} />
              )}
            </tbody>
          </table>
        </RowDetailsContext>
      </ScrollRegion>
    </div>
  );
}

/** The progress line over the table while the next page or filter loads. */
function RefreshBar() {
  return (
    <div aria-hidden="true" className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden bg-indigo-100">
      <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-indigo-600" />
    </div>
  );
}

/** The column headings; a sortable column's heading is a button: newest or largest first, then the reverse. */
function TransactionsHead({
  table,
  sort,
  onSort,
}: {
  table: TransactionsTable;
  sort: SortValue;
  onSort: (sort: SortValue) => void;
}) {
  return (
    <TableHead groups={table.getHeaderGroups()}>
      {(header) => {
        const meta = header.column.columnDef.meta;
        const orders = header.isPlaceholder ? undefined : meta?.sort;
        const direction = sort === orders?.desc ? "desc" : sort === orders?.asc ? "asc" : null;
        return (
          <ColumnHeading
            key={header.id}
            className={cn("px-3", headerClass(meta))}
            sort={
              orders && {
                direction,
                onSort: () => onSort(direction === "desc" ? orders.asc : orders.desc),
                hint: orders.hint,
              }
            }
          >
            {header.isPlaceholder ? null : <table.FlexRender header={header} />}
          </ColumnHeading>
        );
      }}
    </TableHead>
  );
}

/** Placeholder rows, one cell per column, so they line up with the headings whatever the columns are. */
function SkeletonRows({ count, columns }: { count: number; columns: readonly { id: string }[] }) {
  return Array.from({ length: count }, (_, i) => (
    // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
    <tr key={i} className="h-13 border-b border-slate-100">
      {columns.map((column) => (
        <td key={column.id} className="px-3">
          <Skeleton className="h-3.5 w-full max-w-32" />
        </td>
      ))}
    </tr>
  ));
}

/** A transaction's details, under its row, across every column. */
function DetailsRow({ t, tz, columnCount }: { t: TransactionData; tz: TimeZoneChoice; columnCount: number }) {
  return (
    <tr
      id={detailsId(t.id)}
      data-testid="transaction-details"
      className="border-b border-slate-100 bg-slate-50"
    >
      <td colSpan={columnCount} className="px-3 py-3">
        <TransactionDetails t={t} tz={tz} />
      </td>
    </tr>
  );
}

/** One row per transaction, each followed by its details when they are open. */
function TransactionRows({
  table,
  isOpen,
  tz,
  foundId,
}: {
  table: TransactionsTable;
  isOpen: (id: string) => boolean;
  tz: TimeZoneChoice;
  foundId: string | null;
}) {
  return table.getRowModel().rows.map((row) => (
    <Fragment key={row.id}>
      <tr
        className={cn("h-11 border-b border-slate-100 hover:bg-slate-50", row.id === foundId && FOUND_ROW)}
        data-testid="transaction-row"
        data-transaction-id={row.id}
        aria-current={row.id === foundId ? "true" : undefined}
      >
        {row.getAllCells().map((cell, i) => (
          <td
            key={cell.id}
            data-column={cell.column.id}
            className={cn("px-3 py-2 align-middle text-slate-800", cellClass(cell.column.columnDef.meta))}
          >
            {i === 0 && row.id === foundId ? <FoundMarker id={row.id} className="mr-2" /> : null}
            <table.FlexRender cell={cell} />
          </td>
        ))}
      </tr>
      {isOpen(row.id) ? <DetailsRow t={row.original} tz={tz} columnCount={row.getAllCells().length} /> : null}
    </Fragment>
  ));
}
