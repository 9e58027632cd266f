import { createLoader } from "nuqs/server";
import { describe, expect, it } from "vitest";
import { type TransactionViewState, transactionSearchParams } from "./transaction-url-state.ts";
import {
  describeIgnored,
  type ListState,
  totalsLoadAtOnce,
  transactionCaption,
  transactionOutcome,
} from "./transaction-view.ts";

/** The view of a URL without parameters: every default. */
const view: TransactionViewState = createLoader(transactionSearchParams)("");
const page = (total: number, shown = Math.min(total, 20)) => ({ total, transactions: Array(shown).fill({}) });
const state = (patch: Partial<ListState>): ListState => ({
  view,
  tz: "utc",
  invalidRange: false,
  failed: false,
  data: page(45),
  placeholder: false,
  lastDate: "2026-11-19T23:30:00.000Z",
  ...patch,
});

describe("what the transaction view shows", () => {
  it("the table while loading, for a page of rows, and over the previous page while the next loads", () => {
    expect(transactionOutcome(state({ data: undefined })).kind).toBe("table");
    expect(transactionOutcome(state({})).kind).toBe("table");
    expect(transactionOutcome(state({ data: page(0), placeholder: true })).kind).toBe("table");
    expect(transactionOutcome(state({ failed: true })).kind).toBe("table");
  });

  it("an inverted range before anything else, a failure only when nothing was loaded", () => {
    expect(transactionOutcome(state({ invalidRange: true, failed: true })).kind).toBe("invalid-range");
    expect(transactionOutcome(state({ failed: true, data: undefined })).kind).toBe("failed");
  });

  it("an empty list says why: the id, the date range (with the last day), the filters, or no transactions", () => {
    const empty = { data: page(0) };
    expect(transactionOutcome(state({ ...empty, view: { ...view, transaction_id: "T1" } }))).toEqual({
      kind: "no-such-id",
      id: "T1",
      underFilters: false,
    });
    expect(
      transactionOutcome(state({ ...empty, view: { ...view, transaction_id: "T1", status: "pending" } })),
    ).toMatchObject({ underFilters: true });
    const ranged = { ...view, from: "2026-01-01" };
    expect(transactionOutcome(state({ ...empty, view: ranged }))).toEqual({
      kind: "none-in-range",
      lastDate: "2026-11-19T23:30:00.000Z",
      lastDay: "2026-11-19",
    });
    expect(transactionOutcome(state({ ...empty, view: ranged, lastDate: null })).kind).toBe("no-match");
    expect(transactionOutcome(state({ ...empty, view: { ...view, event_type: ["bet"] } })).kind).toBe(
      "no-match",
    );
    expect(transactionOutcome(state(empty)).kind).toBe("no-transactions");
  });

  it("a page past the end names the last page", () => {
    expect(transactionOutcome(state({ data: page(45, 0), view: { ...view, page: 9 } }))).toEqual({
      kind: "past-end",
      pageCount: 3,
    });
  });
});

describe("the caption and the notice texts", () => {
  it("names the order, the time zone and, once loaded, the page and the total", () => {
    const caption = { sort: "amount_desc" as const, tz: "utc" as const, page: 2, perPage: 20 };
    expect(transactionCaption({ ...caption, total: undefined }).caption).toBe(
      "Transactions, largest amount first (by size), times in UTC",
    );
    expect(transactionCaption({ ...caption, total: 1234 })).toEqual({
      caption: "Transactions, largest amount first (by size), times in UTC: page 2 of 62, 1,234 in all",
      description: "Largest amount first (by size). Dates and the date filter in UTC.",
    });
    expect(transactionCaption({ ...caption, total: 0 }).caption).toContain("page 2 of 1, 0 in all");
  });

  it("lists the URL's unusable values", () => {
    expect(describeIgnored([])).toBe("");
    expect(
      describeIgnored([
        { name: "per_page", value: "7" },
        { name: "sort", value: "x" },
      ]),
    ).toBe("per_page=7, sort=x");
  });
});

describe("totalsLoadAtOnce: the totals row loads by itself when the daily stats answer it", () => {
  const base = { event_type: ["deposit"], status: "completed", transaction_id: null };
  it("completed deposits, withdrawals, bets and wins: at once", () => {
    expect(totalsLoadAtOnce(base)).toBe(true);
    expect(totalsLoadAtOnce({ ...base, event_type: ["deposit", "withdrawal", "bet", "win"] })).toBe(true);
  });
  it("anything summed row by row waits for a click", () => {
    expect(totalsLoadAtOnce({ ...base, status: null })).toBe(false);
    expect(totalsLoadAtOnce({ ...base, status: "pending" })).toBe(false);
    expect(totalsLoadAtOnce({ ...base, event_type: [] })).toBe(false);
    expect(totalsLoadAtOnce({ ...base, event_type: ["deposit", "bonus"] })).toBe(false);
    expect(totalsLoadAtOnce({ ...base, transaction_id: "T1" })).toBe(false);
  });
});
