"use client";

import type { UseQueryResult } from "@tanstack/react-query";
import { Fragment } from "react";
import { leftOutOfSum } from "@/features/transactions/client/moved-money";
import type { TransactionTotalsData } from "@/features/transactions/client/queries";
import { TRANSACTION_STATUS_LABELS } from "@/features/transactions/client/transaction-labels";
import { formatCount, formatMoney } from "@/platform/format/money";

/**
 * The totals of the current filter under the table, for every page at once: how many transactions match, per
 * currency the exact signed sum of the completed ones (money in minus money out, from the player's point of view;
 * only completed money moved), and the pending, failed and cancelled matches left out of it with their own sums.
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
          {data.by_currency.map((c) => {
            const leftOut = leftOutOfSum(c);
            return (
              <Fragment key={c.currency}>
                <span className="tabular-nums text-slate-900" data-testid="transaction-totals-sum">
                  sum {formatMoney(c.sum, c.currency, { signed: true })}
                  {data.by_currency.length > 1 ? ` (${formatCount(c.count)})` : ""}
                </span>
                {leftOut.length > 0 ? (
                  <span className="tabular-nums text-slate-600" data-testid="transaction-totals-left-out">
                    not in the sum:{" "}
                    {leftOut.map((p, i) => (
                      // One part per status, kept on one line: a narrow screen wraps between them.
                      <Fragment key={p.status}>
                        {i > 0 ? " · " : ""}
                        <span className="whitespace-nowrap">
                          {formatCount(p.count)} {TRANSACTION_STATUS_LABELS[p.status].label.toLowerCase()}{" "}
                          {formatMoney(p.sum, c.currency, { signed: true })}
                        </span>
                      </Fragment>
                    ))}
                  </span>
                ) : null}
              </Fragment>
            );
          })}
          <span className="text-xs text-slate-600" data-testid="transaction-totals-rule">
            sum of completed transactions only (money in minus money out), all pages
          </span>
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
