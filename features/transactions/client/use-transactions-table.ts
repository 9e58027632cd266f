"use client";

import {
  type ColumnDef,
  metaHelper,
  type PaginationState,
  rowPaginationFeature,
  tableFeatures,
  useTable,
} from "@tanstack/react-table";
import { useMemo } from "react";
import type { TransactionData } from "@/features/transactions/client/queries";
import type { SortValue } from "@/features/transactions/client/transaction-url-state";
import type { TimeZoneChoice } from "@/platform/format/days";

/** How a column lays out its cells: every column says it, so the table view keeps no lists of its own. */
export interface TransactionColumnMeta {
  align: "start" | "end";
  /** false: the cell stays on one line (dates, amounts, short names); true: long text may wrap. */
  wrap: boolean;
  /** The API's orders for this column, largest/newest first and the reverse: its heading becomes a sort button. */
  /** The orders its heading sorts by; `hint` says how, shown while it is the order ("by size"). */
  sort?: { desc: SortValue; asc: SortValue; hint?: string };
}

// TanStack Table 9's type-only slot: `meta` is typed for this table's columns alone (no global augmentation).
export const features = tableFeatures({
  rowPaginationFeature,
  columnMeta: metaHelper<TransactionColumnMeta>(),
});

// biome-ignore lint/suspicious/noExplicitAny: a column's value type varies by column, as in TanStack's own helper.
export type TransactionColumns = ColumnDef<typeof features, TransactionData, any>[];

const emptyRows: TransactionData[] = [];

/**
 * One page of transactions, fetched by the server: the table does no client-side paging or
 * filtering (manualPagination); its pagination state is the URL's. `columnsFor` builds the columns for a
 * time zone (they hold markup, so they live with the components).
 */
export function useTransactionsTable({
  rows,
  total,
  pagination,
  onPaginationChange,
  tz,
  columnsFor,
}: {
  rows: TransactionData[] | undefined;
  total: number | undefined;
  pagination: PaginationState;
  onPaginationChange: (next: PaginationState) => void;
  tz: TimeZoneChoice;
  columnsFor: (tz: TimeZoneChoice) => TransactionColumns;
}) {
  const columns = useMemo(() => columnsFor(tz), [columnsFor, tz]);
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
