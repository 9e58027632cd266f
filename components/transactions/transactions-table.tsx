"use client";

import {
  createColumnHelper,
  type PaginationState,
  rowPaginationFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useMemo } from "react";
import type { TimeZoneChoice } from "@/lib/client/transaction-url-state";
import type { TransactionData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { formatDate, formatTime, timeZoneLabel } from "@/lib/format/dates";
import { EVENT_TYPE_LABELS } from "@/lib/format/labels";
import { directionOf, formatMoney } from "@/lib/format/money";
import { Badge } from "../ui/badge.tsx";
import { Skeleton } from "../ui/skeleton.tsx";

export const features = tableFeatures({ rowPaginationFeature });
const helper = createColumnHelper<typeof features, TransactionData>();

const RIGHT = new Set(["amount"]);
const NOWRAP = new Set([
  "date",
  "amount",
  "created_at",
  "completed_at",
  "event_type",
  "event_name",
  "created_by",
]);

/** Date over time, so that three date columns fit beside the others at 1280 px. */
function DateCell({ iso, tz }: { iso: string; tz: TimeZoneChoice }) {
  return (
    <time dateTime={iso} className="block leading-tight">
      <span className="block">{formatDate(iso, tz)}</span>
      <span className="block text-xs tabular-nums text-slate-600">{formatTime(iso, tz)}</span>
    </time>
  );
}

function buildColumns(tz: TimeZoneChoice) {
  const zone = timeZoneLabel(tz);
  return helper.columns([
    helper.accessor("date", {
      header: `Date (${zone})`,
      cell: (info) => <DateCell iso={info.getValue()} tz={tz} />,
    }),
    helper.accessor("event_type", {
      header: "Event type",
      cell: (info) => EVENT_TYPE_LABELS[info.getValue()] ?? info.getValue(),
    }),
    helper.accessor("event_name", { header: "Event name" }),
    helper.accessor("event_note", {
      header: "Note",
      cell: (info) => info.getValue() ?? <span className="text-slate-500">—</span>,
    }),
    helper.accessor("amount", {
      header: "Amount",
      cell: (info) => <AmountText amount={info.getValue()} currency={info.row.original.currency} />,
    }),
    helper.accessor("payment_method", {
      header: "Payment method",
      cell: (info) => info.getValue() ?? <span className="text-slate-500">—</span>,
    }),
    helper.accessor("created_by", { header: "Created by" }),
    helper.accessor("created_at", {
      header: `Created at (${zone})`,
      cell: (info) => <DateCell iso={info.getValue()} tz={tz} />,
    }),
    helper.accessor("completed_at", {
      header: `Completed at (${zone})`,
      cell: (info) => {
        const value = info.getValue();
        return value ? <DateCell iso={value} tz={tz} /> : <Badge tone="warning">Pending</Badge>;
      },
    }),
  ]);
}

const COLUMN_COUNT = 9;
const emptyRows: TransactionData[] = [];

/**
 * One page of transactions, fetched by the server: the table does no client-side paging or
 * filtering (manualPagination); its pagination state is the URL's.
 */
export function useTransactionsTable({
  rows,
  total,
  pagination,
  onPaginationChange,
  tz,
}: {
  rows: TransactionData[] | undefined;
  total: number | undefined;
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  tz: TimeZoneChoice;
}) {
  const columns = useMemo(() => buildColumns(tz), [tz]);
  return useTable({
    features,
    columns,
    data: rows ?? emptyRows,
    getRowId: (row) => row.id,
    manualPagination: true,
    rowCount: total ?? 0,
    state: { pagination },
    onPaginationChange: (updater) =>
      onPaginationChange(typeof updater === "function" ? updater(pagination) : updater),
  });
}

export type TransactionsTable = ReturnType<typeof useTransactionsTable>;

function AmountText({ amount, currency }: { amount: string; currency: string }) {
  const direction = directionOf(amount);
  return (
    <span
      className={cn(
        "font-medium tabular-nums",
        direction === "in" && "text-emerald-700",
        direction === "out" && "text-red-700",
        direction === "none" && "text-slate-700",
      )}
    >
      {formatMoney(amount, currency, { signed: true })}
    </span>
  );
}

/** Below 768 px a table of nine columns is hard to read: each transaction becomes a small card. */
function TransactionCards({
  rows,
  tz,
  loading,
  skeletonRows,
}: {
  rows: TransactionData[];
  tz: TimeZoneChoice;
  loading: boolean;
  skeletonRows: number;
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
        <li key={t.id} className="px-4 py-3 text-sm" data-testid="transaction-card">
          <div className="flex items-start justify-between gap-3">
            <p className="font-medium text-slate-900">
              {EVENT_TYPE_LABELS[t.event_type] ?? t.event_type} · {t.event_name}
            </p>
            <p className="whitespace-nowrap">
              <AmountText amount={t.amount} currency={t.currency} />
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
            <dt className="text-slate-600">Created</dt>
            <dd>
              {formatDate(t.created_at, tz)}, {formatTime(t.created_at, tz)} by {t.created_by}
            </dd>
            <dt className="text-slate-600">Completed</dt>
            <dd>
              {t.completed_at ? (
                `${formatDate(t.completed_at, tz)}, ${formatTime(t.completed_at, tz)}`
              ) : (
                <Badge tone="warning">Pending</Badge>
              )}
            </dd>
          </dl>
        </li>
      ))}
    </ul>
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
}: {
  table: TransactionsTable;
  caption: string;
  loading: boolean;
  refreshing: boolean;
  skeletonRows: number;
  captionId: string;
  tz: TimeZoneChoice;
}) {
  const headerGroups = table.getHeaderGroups();
  const rows = table.getRowModel().rows.map((r) => r.original);
  return (
    <div className="relative">
      {refreshing ? (
        <div aria-hidden="true" className="absolute inset-x-0 top-0 z-10 h-0.5 overflow-hidden bg-indigo-100">
          <div className="h-full w-1/3 animate-[progress_1s_ease-in-out_infinite] bg-indigo-600" />
        </div>
      ) : null}
      <div
        className={cn("md:hidden", refreshing && "opacity-60 transition-opacity")}
        aria-busy={loading || refreshing}
      >
        <p className="sr-only">{caption}</p>
        <TransactionCards rows={rows} tz={tz} loading={loading} skeletonRows={Math.min(skeletonRows, 20)} />
      </div>
      {/* A focusable, labelled scroll region: if the table is wider than the screen, the keyboard can scroll it. */}
      <section
        aria-labelledby={captionId}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be reachable by keyboard
        tabIndex={0}
        className="hidden overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600 md:block"
      >
        <table
          className="w-full min-w-[1000px] border-collapse text-left text-sm"
          aria-busy={loading || refreshing}
        >
          <caption id={captionId} className="sr-only">
            {caption}
          </caption>
          <thead className="bg-slate-50">
            {headerGroups.map((group) => (
              <tr key={group.id} className="border-b border-slate-200">
                {group.headers.map((header) => (
                  <th
                    key={header.id}
                    scope="col"
                    className={cn(
                      "whitespace-nowrap px-3 py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-600",
                      RIGHT.has(header.column.id) && "text-right",
                    )}
                  >
                    {header.isPlaceholder ? null : <table.FlexRender header={header} />}
                  </th>
                ))}
              </tr>
            ))}
          </thead>
          <tbody className={cn(refreshing && "opacity-60 transition-opacity")}>
            {loading
              ? Array.from({ length: skeletonRows }, (_, i) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: placeholder rows have no identity
                  <tr key={i} className="h-13 border-b border-slate-100">
                    {Array.from({ length: COLUMN_COUNT }, (_, j) => (
                      // biome-ignore lint/suspicious/noArrayIndexKey: placeholder cells have no identity
                      <td key={j} className="px-3">
                        <Skeleton className="h-3.5 w-full max-w-32" />
                      </td>
                    ))}
                  </tr>
                ))
              : table.getRowModel().rows.map((row) => (
                  <tr
                    key={row.id}
                    className="h-13 border-b border-slate-100 hover:bg-slate-50"
                    data-testid="transaction-row"
                  >
                    {row.getAllCells().map((cell) => (
                      <td
                        key={cell.id}
                        data-column={cell.column.id}
                        className={cn(
                          "px-3 py-2 align-middle text-slate-800",
                          RIGHT.has(cell.column.id) && "text-right",
                          NOWRAP.has(cell.column.id) && "whitespace-nowrap",
                        )}
                      >
                        <table.FlexRender cell={cell} />
                      </td>
                    ))}
                  </tr>
                ))}
          </tbody>
        </table>
      </section>
    </div>
  );
}
