"use client";

import { ChevronLeft, ChevronRight, ChevronsLeft, ChevronsRight, type LucideIcon } from "lucide-react";
import { useId } from "react";
import { PAGE_SIZES } from "@/features/transactions/client/transaction-url-state";
import type { TransactionsTable } from "@/features/transactions/client/use-transactions-table";
import { formatCount } from "@/platform/format/money";
import { pageRangeText } from "@/platform/format/pagination";
import { Button } from "../../../platform/ui/button.tsx";

export function PaginationBar({
  table,
  total,
  shown,
  disabled,
}: {
  table: TransactionsTable;
  total: number | undefined;
  shown: number;
  disabled: boolean;
}) {
  const sizeId = useId();
  const { pageIndex, pageSize } = table.state.pagination;
  const pageCount = Math.max(1, table.getPageCount());
  return (
    <nav
      aria-label="Transaction pages"
      className="flex flex-col gap-3 px-4 py-3 sm:flex-row sm:items-center sm:justify-between sm:px-5"
    >
      <div className="flex items-center gap-2">
        <label htmlFor={sizeId} className="text-sm text-slate-700">
          Rows per page
        </label>
        <select
          id={sizeId}
          value={pageSize}
          onChange={(e) => table.setPageSize(Number(e.target.value))}
          className="h-8 rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {PAGE_SIZES.map((size) => (
            <option key={size} value={size}>
              {size}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-wrap items-center gap-x-4 gap-y-2">
        <p
          className="min-w-40 text-sm tabular-nums text-slate-700"
          aria-live="polite"
          data-testid="page-range"
        >
          {total === undefined ? "\u00a0" : pageRangeText(pageIndex, pageSize, shown, total)}
        </p>
        <p className="text-sm tabular-nums text-slate-600">
          Page {formatCount(pageIndex + 1)} of {formatCount(pageCount)}
        </p>
        <div className="flex items-center gap-1">
          <PageButton
            label="First page"
            icon={ChevronsLeft}
            disabled={disabled || !table.getCanPreviousPage()}
            onClick={() => table.firstPage()}
          />
          <PageButton
            label="Previous page"
            icon={ChevronLeft}
            disabled={disabled || !table.getCanPreviousPage()}
            onClick={() => table.previousPage()}
          />
          <PageButton
            label="Next page"
            icon={ChevronRight}
            disabled={disabled || !table.getCanNextPage()}
            onClick={() => table.nextPage()}
          />
          <PageButton
            label="Last page"
            icon={ChevronsRight}
            disabled={disabled || !table.getCanNextPage()}
            onClick={() => table.lastPage()}
          />
        </div>
      </div>
    </nav>
  );
}

/** An icon button that moves through the pages; its label is both its accessible name and its tooltip. */
function PageButton({
  label,
  icon: Icon,
  disabled,
  onClick,
}: {
  label: string;
  icon: LucideIcon;
  disabled: boolean;
  onClick: () => void;
}) {
  return (
    <Button
      size="icon"
      variant="secondary"
      aria-label={label}
      title={label}
      disabled={disabled}
      onClick={onClick}
    >
      <Icon aria-hidden="true" className="size-4" />
    </Button>
  );
}
