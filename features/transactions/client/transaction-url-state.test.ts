import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { addDays, dayBounds, isDay, today } from "@/platform/format/days";
import {
  hasActiveFilters,
  ignoredTransactionParams,
  presetRange,
  type TransactionViewState,
  toTransactionApiQuery,
  toTransactionExportQuery,
  toTransactionFilterQuery,
} from "./transaction-url-state.ts";

const base: TransactionViewState = {
  event_type: [],
  event_name: [],
  created_by: null,
  status: null,
  transaction_id: null,
  from: null,
  to: null,
  sort: "date_desc",
  page: 1,
  per_page: 20,
};

describe("toTransactionApiQuery", () => {
  it("maps the view to the API's parameters, page to offset", () => {
    const q = toTransactionApiQuery(
      {
        ...base,
        event_type: ["bet", "win"],
        event_name: ["Casino Bet", "A, with comma"],
        created_by: "VIP Manager",
        page: 3,
        per_page: 50,
      },
      "utc",
    );
    expect(q.getAll("event_type")).toEqual(["bet", "win"]);
    expect(q.getAll("event_name")).toEqual(["Casino Bet", "A, with comma"]);
    expect(q.get("created_by")).toBe("VIP Manager");
    expect(q.get("limit")).toBe("50");
    expect(q.get("offset")).toBe("100");
    expect(q.has("from_date")).toBe(false);
  });

  it("sends whole UTC days for the UTC view", () => {
    const q = toTransactionApiQuery({ ...base, from: "2026-01-01", to: "2026-01-31" }, "utc");
    expect(q.get("from_date")).toBe("2026-01-01T00:00:00.000Z");
    expect(q.get("to_date")).toBe("2026-01-31T23:59:59.999Z");
  });

  it("treats a page below 1 as the first page", () => {
    expect(toTransactionApiQuery({ ...base, page: 0 }, "utc").get("offset")).toBe("0");
  });
});

describe("in the browser's time zone", () => {
  const original = process.env.TZ;
  beforeEach(() => {
    process.env.TZ = "America/New_York"; // UTC−5 in January, UTC−4 in July
  });
  afterEach(() => {
    process.env.TZ = original;
  });

  it("sends the local days' first and last milliseconds as instants", () => {
    expect(dayBounds("2026-01-15", "local")).toEqual({
      start: "2026-01-15T05:00:00.000Z",
      end: "2026-01-16T04:59:59.999Z",
    });
    expect(dayBounds("2026-07-15", "local").start).toBe("2026-07-15T04:00:00.000Z");
  });

  it("counts today in the chosen zone", () => {
    const lateEvening = new Date("2026-11-21T02:00:00Z"); // 21:00 on the 20th in New York
    expect(today("utc", lateEvening)).toBe("2026-11-21");
    expect(today("local", lateEvening)).toBe("2026-11-20");
    expect(presetRange(7, "local", lateEvening)).toEqual({ from: "2026-11-14", to: "2026-11-20" });
  });
});

describe("day helpers", () => {
  it("accepts only real calendar days", () => {
    expect(isDay("2026-02-28")).toBe(true);
    expect(isDay("2028-02-29")).toBe(true);
    expect(isDay("2026-02-29")).toBe(false);
    expect(isDay("2026-13-01")).toBe(false);
    expect(isDay("2026-1-01")).toBe(false);
    expect(isDay("yesterday")).toBe(false);
  });

  it("adds days across months and years", () => {
    expect(addDays("2026-01-01", -1)).toBe("2025-12-31");
    expect(addDays("2026-02-27", 2)).toBe("2026-03-01");
  });

  it("presets span N days ending today", () => {
    const now = new Date("2026-11-20T12:00:00Z");
    expect(presetRange(30, "utc", now)).toEqual({ from: "2026-10-22", to: "2026-11-20" });
  });

  it("knows when any filter is set", () => {
    expect(hasActiveFilters(base)).toBe(false);
    expect(hasActiveFilters({ ...base, to: "2026-01-01" })).toBe(true);
    expect(hasActiveFilters({ ...base, event_name: ["Casino Bet"] })).toBe(true);
  });
});

describe("sort, status and transaction id", () => {
  it("reach the list, the export and the facets; the default order is left to the API", () => {
    const view: TransactionViewState = {
      ...base,
      status: "pending",
      transaction_id: "T0000000042",
      sort: "amount_asc",
    };
    const list = toTransactionApiQuery(view, "utc");
    const csv = toTransactionExportQuery(view, "utc");
    for (const q of [list, csv]) {
      expect(q.get("sort")).toBe("amount_asc");
      expect(q.get("status")).toBe("pending");
      expect(q.get("transaction_id")).toBe("T0000000042");
    }
    const facets = toTransactionFilterQuery(view, "utc");
    expect(facets.get("status")).toBe("pending");
    expect(facets.has("sort")).toBe(false);
    expect(toTransactionApiQuery(base, "utc").has("sort")).toBe(false);
    expect(hasActiveFilters({ ...base, status: "completed" })).toBe(true);
    expect(hasActiveFilters({ ...base, transaction_id: "T1" })).toBe(true);
  });
});

describe("ignoredTransactionParams", () => {
  const ignored = (query: string) => ignoredTransactionParams(new URLSearchParams(query));

  it("lists each value the view cannot use, by name and value", () => {
    expect(ignored("event_type=bogus&per_page=7&sort=sideways&status=x")).toEqual([
      { name: "event_type", value: "bogus" },
      { name: "status", value: "x" },
      { name: "sort", value: "sideways" },
      { name: "per_page", value: "7" },
    ]);
    expect(ignored("page=0&from=2026-02-30&to=soon")).toEqual([
      { name: "from", value: "2026-02-30" },
      { name: "to", value: "soon" },
      { name: "page", value: "0" },
    ]);
  });

  it("keeps the valid values beside an invalid one, and says nothing of a clean URL", () => {
    expect(ignored("event_type=bet&event_type=bogus&per_page=50")).toEqual([
      { name: "event_type", value: "bogus" },
    ]);
    expect(
      ignored(
        "event_type=bet&event_name=Casino%20Bet&created_by=System&status=completed&transaction_id=T1&from=2026-01-01&to=2026-01-31&sort=amount_desc&page=2&per_page=100&tz=local&section=transactions",
      ),
    ).toEqual([]);
  });
});
