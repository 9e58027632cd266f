import { describe, expect, it } from "vitest";
import { drillDownHref, monthDays, periodDays } from "./drill-down.ts";
import { transactionSearchParams } from "./transaction-url-state.ts";

describe("drill-down: a figure's transactions in the transaction view's URL state", () => {
  it("types, completed, the period's UTC days and tz=utc, in the view's parameter names", () => {
    const href = drillDownHref("P000007", {
      types: ["deposit", "withdrawal"],
      ...periodDays("2026-10-22T00:00:00.000Z", "2026-11-21T00:00:00.000Z"),
    });
    expect(href).toBe(
      "/players/P000007?section=transactions&event_type=deposit&event_type=withdrawal&status=completed&from=2026-10-22&to=2026-11-20&tz=utc",
    );
    const search = new URL(href, "http://x").searchParams;
    for (const name of search.keys()) {
      if (name !== "section" && name !== "tz") expect(Object.keys(transactionSearchParams)).toContain(name);
    }
    expect(transactionSearchParams.from.parse("2026-10-22")).toBe("2026-10-22");
  });

  it("all time has no dates; ids are encoded", () => {
    expect(drillDownHref("P 1/x", { types: ["bet"], ...periodDays(null, null) })).toBe(
      "/players/P%201%2Fx?section=transactions&event_type=bet&status=completed&tz=utc",
    );
  });

  it("months: first and last day, leap years and December", () => {
    expect(monthDays("2024-02")).toEqual({ from: "2024-02-01", to: "2024-02-29" });
    expect(monthDays("2026-02")).toEqual({ from: "2026-02-01", to: "2026-02-28" });
    expect(monthDays("2026-12")).toEqual({ from: "2026-12-01", to: "2026-12-31" });
  });
});
