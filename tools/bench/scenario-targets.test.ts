import { describe, expect, it } from "vitest";
import {
  baselineListSql,
  baselineSearchSql,
  baselineSummarySql,
  parseBaselineQuery,
} from "./baseline-sql.ts";
import { checkTargets, type Measurement, type ResultRow } from "./report.ts";
import { SCENARIO_NAMES } from "./scenarios.ts";

const m = (p99: number): Measurement => ({
  rps: 100,
  p50: p99 / 2,
  p99,
  requests: 500,
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statuses: { "200": 500 },
});
const row = (scenario: ResultRow["scenario"], p99: number): ResultRow => ({
  scenario,
  concurrency: 1,
  product: m(p99),
  baseline: m(p99),
});

describe("issue-12 scenarios", () => {
  it("are part of the bench: summary, whale-summary-all, whale-sort-amount", () => {
    expect(SCENARIO_NAMES).toEqual(
      expect.arrayContaining(["summary", "whale-summary-all", "whale-sort-amount"]),
    );
  });

  it("hold p99 ≤ 20 ms at c1, while the other scenarios keep < 50 ms", () => {
    expect(
      checkTargets([row("summary", 20), row("whale-sort-amount", 19.9), row("whale-first-page", 30)], 100),
    ).toEqual([]);
    expect(checkTargets([row("whale-summary-all", 21), row("whale-sort-amount", 49)], 100)).toEqual([
      "whale-summary-all@c1 p99 21 ms > 20 ms",
      "whale-sort-amount@c1 p99 49 ms > 20 ms",
    ]);
  });

  it("the baseline sorts like the product and answers the summary with a plain aggregate", () => {
    const q = parseBaselineQuery(new URLSearchParams("sort=amount_desc"));
    expect(baselineListSql("P1", q).rows.text).toContain("ORDER BY amount DESC, id DESC");
    expect(baselineListSql("P1", parseBaselineQuery(new URLSearchParams(""))).rows.text).toContain(
      "ORDER BY date DESC, id DESC",
    );
    expect(() => parseBaselineQuery(new URLSearchParams("sort=amount"))).toThrow(RangeError);
    expect(baselineSummarySql("P1", "30d").text).toContain("current_date - 29");
    expect(baselineSummarySql("P1", "all").text).not.toContain("current_date");
  });
});

describe("issue-23 scenarios", () => {
  it("the lookup is in the bench: a name p99 ≤ 50 ms, a transaction id p99 ≤ 20 ms at c1", () => {
    expect(SCENARIO_NAMES).toEqual(expect.arrayContaining(["search-name", "search-transaction-id"]));
    expect(checkTargets([row("search-name", 50), row("search-transaction-id", 20)], 100)).toEqual([]);
    expect(checkTargets([row("search-name", 51), row("search-transaction-id", 21)], 100)).toEqual([
      "search-name@c1 p99 51 ms > 50 ms",
      "search-transaction-id@c1 p99 21 ms > 20 ms",
    ]);
  });

  it("the baseline folds names without an index and looks the id up by lower(id)", () => {
    const sql = baselineSearchSql("zoe_100%");
    expect(sql.rows.text).toContain("unaccent(name) ILIKE unaccent($1)");
    expect(sql.rows.values).toEqual(["%zoe\\_100\\%%"]);
    expect(sql.transactions.text).toContain("lower(id) = lower($1)");
  });
});
