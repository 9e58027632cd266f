"use client";

import { ArrowUp } from "lucide-react";
import { newTransactionsLabel } from "@/features/transactions/client/new-transactions";

/**
 * "3 new transactions — show": floats over the top of the table, so the rows under the pointer never move
 * when it appears; the new rows enter only on the click. The count is announced to screen readers as it changes.
 */
export function NewTransactionsNotice({
  count,
  showing,
  onShow,
}: {
  count: number;
  showing: boolean;
  onShow: () => void;
}) {
  const label = count > 0 ? newTransactionsLabel(count) : "";
  return (
    // Centred on the line between the filters and the table: it hides neither a row nor a filter.
    <div className="pointer-events-none absolute inset-x-0 top-0 z-10 flex -translate-y-1/2 justify-center px-2">
      <p role="status" className="sr-only">
        {label}
      </p>
      {count > 0 ? (
        <button
          type="button"
          onClick={onShow}
          disabled={showing}
          data-testid="new-transactions"
          className="pointer-events-auto inline-flex items-center gap-1.5 rounded-full bg-indigo-700 px-3 py-1.5 text-sm font-medium text-white shadow-md hover:bg-indigo-800 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-80"
        >
          <ArrowUp aria-hidden="true" className="size-4" />
          {label} — {showing ? "showing…" : "show"}
        </button>
      ) : null}
    </div>
  );
}
