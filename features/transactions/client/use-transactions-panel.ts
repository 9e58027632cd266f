"use client";

import { useId } from "react";
import { useNewTransactions } from "@/features/live/client";
import { useTransactionView } from "@/features/transactions/client/use-transaction-view";
import {
  type TransactionColumns,
  useTransactionsTable,
} from "@/features/transactions/client/use-transactions-table";
import type { TimeZoneChoice } from "@/platform/format/days";

/**
 * A player's transaction panel: the view from the URL (useTransactionView), the table over its page
 * (`columnsFor` builds the columns: they are markup, so they come from the component), the caption's id, and
 * the count of transactions that arrived since the list was read (not asked while the date range is empty).
 */
export function useTransactionsPanel(
  playerId: string,
  columnsFor: (tz: TimeZoneChoice) => TransactionColumns,
) {
  const view = useTransactionView(playerId);
  const table = useTransactionsTable({
    rows: view.data?.transactions,
    total: view.data?.total,
    pagination: view.pagination,
    onPaginationChange: view.setPagination,
    tz: view.tz,
    columnsFor,
  });
  const captionId = useId();
  const fresh = useNewTransactions({
    playerId,
    filters: view.filterQuery,
    list: view.list,
    enabled: !view.invalidRange,
  });
  return { view, table, captionId, fresh };
}
