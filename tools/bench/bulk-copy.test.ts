import { describe, expect, it } from "vitest";
import { parseBenchArgs } from "./args.ts";
import { type BulkCopyResult, bulkLine, withBulk } from "./bulk-copy.ts";
import { SCENARIO_NAMES } from "./scenarios.ts";

const copy = (rowsPerSecond: number, failure: string | null = null): BulkCopyResult => ({
  rows: 1_000_000,
  pages: 1_000,
  seconds: 1_000_000 / rowsPerSecond,
  rowsPerSecond,
  p50: 8,
  p99: 20,
  failure,
});

describe("the bulk scenario", () => {
  it("is part of the bench and takes a row limit", () => {
    expect(SCENARIO_NAMES).toContain("bulk");
    const url = { DATABASE_URL: "postgresql://x/y" };
    expect(parseBenchArgs(["--scenarios", "bulk", "--bulk-rows", "500000"], url)).toMatchObject({
      scenarios: ["bulk"],
      bulkRows: 500_000,
    });
    expect(() => parseBenchArgs(["--bulk-rows", "0"], url)).toThrow(/--bulk-rows/);
  });

  it("fails the summary below the target or on an error, and names the figure either way", () => {
    const pass = "SUMMARY PASS 2 measurements, peak RSS 300 MB";
    expect(withBulk(pass, null)).toBe(pass);
    expect(withBulk(pass, copy(120_000))).toBe(
      "SUMMARY PASS 2 measurements, peak RSS 300 MB, bulk 120,000 rows/s over 1,000,000 rows",
    );
    expect(withBulk(pass, copy(40_000))).toBe(
      "SUMMARY FAIL 2 measurements, peak RSS 300 MB, bulk 40,000 rows/s over 1,000,000 rows; failed: bulk < 100,000 rows/s",
    );
    expect(withBulk("SUMMARY FAIL x; failed: a; b", copy(150_000, "HTTP 403: no"))).toBe(
      "SUMMARY FAIL x, bulk 150,000 rows/s over 1,000,000 rows; failed: a; b; bulk HTTP 403: no",
    );
    expect(bulkLine(copy(40_000), 100_000)).toContain("BELOW the target of ≥ 100,000 rows/s");
  });
});
