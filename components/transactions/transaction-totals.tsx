"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import type { TransactionTotalsData } from "@/lib/client/wire";
import { formatCount, formatMoney } from "@/lib/format/money";

/**
 * The totals of the current filter under the table: how many transactions match and their exact signed sum per
 * currency (money in minus money out, from the player's point of view), for every page at once.
 */
export function TransactionTotalsRow({
  totals,
  hidden,
  requested,
  onRequest,
}: {
  totals: UseQueryResult<TransactionTotalsData>;
  hidden: boolean;
  /** false: these filters are summed row by row, on request (a button) rather than on every visit. */
  requested: boolean;
  onRequest: () => void;
}) {
  if (hidden) return null;
  const data = requested ? totals.data : undefined;
  return (
    <div
      className="flex flex-wrap items-baseline gap-x-3 gap-y-1 border-t border-slate-100 px-4 py-2.5 text-sm sm:px-5"
      data-testid="transaction-totals"
      aria-busy={totals.isFetching || undefined}
    >
      <span className="font-medium text-slate-800">Totals for these filters</span>
      {data ? (
        <>
          <span className="tabular-nums text-slate-900" data-testid="transaction-totals-count">
            {formatCount(data.count)} {data.count === 1 ? "transaction" : "transactions"}
          </span>
          {data.by_currency.map((c) => (
            <span
              key={c.currency}
              className="tabular-nums text-slate-900"
              data-testid="transaction-totals-sum"
            >
              sum {formatMoney(c.sum, c.currency, { signed: true })}
              {data.by_currency.length > 1 ? ` (${formatCount(c.count)})` : ""}
            </span>
          ))}
          <span className="text-xs text-slate-600">signed: money in minus money out, all pages</span>
        </>
      ) : !requested ? (
        <button
          type="button"
          data-testid="transaction-totals-request"
          className="rounded-sm text-indigo-700 underline underline-offset-2 focus-visible:outline-2 focus-visible:outline-indigo-600"
          onClick={onRequest}
        >
          Count and sum all pages
        </button>
      ) : totals.isError ? (
        <span className="text-slate-700">
          could not be loaded.{" "}
          <button
            type="button"
            className="rounded-sm text-indigo-700 underline focus-visible:outline-2 focus-visible:outline-indigo-600"
            onClick={() => void totals.refetch()}
          >
            Retry
          </button>
        </span>
      ) : (
        <span className="text-slate-600">counting…</span>
      )}
    </div>
  );
}
