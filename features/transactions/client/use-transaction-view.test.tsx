import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { NuqsTestingAdapter } from "nuqs/adapters/testing";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { type TransactionListData, transactionQueries } from "@/features/transactions/client/queries";
import { useTransactionView } from "./use-transaction-view.ts";

type View = ReturnType<typeof useTransactionView>;

/** Renders the hook once and hands its result out. */
function Probe({ onView }: { onView: (view: View) => void }) {
  onView(useTransactionView("P1"));
  return null;
}

/** The hook's view of `search`, with the list's query for `apiQuery` already answered. */
function viewOf(search: string, apiQuery: string, list: Pick<TransactionListData, "total" | "transactions">) {
  const client = new QueryClient();
  client.setQueryData(transactionQueries.transactions("P1", new URLSearchParams(apiQuery)).queryKey, {
    ...list,
    limit: 0,
    offset: 0,
    has_more: false,
    next_cursor: null,
  } as TransactionListData);
  let seen: View | undefined;
  renderToStaticMarkup(
    <QueryClientProvider client={client}>
      <NuqsTestingAdapter searchParams={search}>
        <Probe
          onView={(view) => {
            seen = view;
          }}
        />
      </NuqsTestingAdapter>
    </QueryClientProvider>,
  );
  if (!seen) throw new Error("the hook did not run");
  return seen;
}

describe("useTransactionView", () => {
  it("reads filters, order and page from the URL and shows the answer to that query", () => {
    const v = viewOf(
      "?event_type=bet&sort=amount_asc&page=3&per_page=10",
      "event_type=bet&sort=amount_asc&limit=10&offset=20",
      {
        total: 45,
        transactions: [],
      },
    );
    expect(v.view).toMatchObject({ event_type: ["bet"], sort: "amount_asc", page: 3, per_page: 10 });
    expect(v.active).toBe(true);
    expect(v.pagination).toEqual({ pageIndex: 2, pageSize: 10 });
    expect(v.caption).toBe(
      "Transactions, smallest amount first (by size), times in UTC: page 3 of 5, 45 in all",
    );
    expect(v.exportQuery.toString()).toBe("event_type=bet&sort=amount_asc&format=csv");
  });

  it("a page past the end of the answer says so; an inverted range queries nothing", () => {
    expect(viewOf("?page=9", "limit=20&offset=160", { total: 45, transactions: [] }).outcome).toEqual({
      kind: "past-end",
      pageCount: 3,
    });
    const inverted = viewOf("?from=2026-02-01&to=2026-01-01", "", { total: 0, transactions: [] });
    expect(inverted.outcome.kind).toBe("invalid-range");
    expect(inverted.list.fetchStatus).toBe("idle");
  });
});
