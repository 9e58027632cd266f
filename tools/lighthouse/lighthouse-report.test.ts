import { describe, expect, it } from "vitest";
import {
  figuresOf,
  firstLoadJsBytes,
  formatTable,
  type LighthouseResult,
  medianFigures,
} from "./lighthouse-report.ts";

function lhr(performance: number, lcpMs: number, scripts: [string, number][]): LighthouseResult {
  return {
    finalDisplayedUrl: "http://127.0.0.1:4050/players/P000007",
    categories: {
      performance: { score: performance },
      accessibility: { score: 1 },
      "best-practices": { score: 0.96 },
    },
    audits: {
      "largest-contentful-paint": { numericValue: lcpMs },
      "total-blocking-time": { numericValue: 120 },
      "network-requests": {
        details: {
          items: [
            ...scripts.map(([url, transferSize]) => ({ url, resourceType: "Script", transferSize })),
            {
              url: "http://127.0.0.1:4050/_next/static/chunks/a.css",
              resourceType: "Stylesheet",
              transferSize: 9000,
            },
            { url: "http://127.0.0.1:4050/players/P000007", resourceType: "Document", transferSize: 30_000 },
          ],
        },
      },
    },
  };
}

describe("lighthouse report", () => {
  it("counts only this origin's scripts as first-load JS", () => {
    const report = lhr(0.9, 1000, [
      ["http://127.0.0.1:4050/_next/static/chunks/main.js", 50_000],
      ["http://127.0.0.1:4050/_next/static/chunks/page.js", 20_000],
      ["https://cdn.example.com/tracker.js", 99_999],
    ]);
    expect(firstLoadJsBytes(report)).toBe(70_000);
  });

  it("takes each figure's median over the runs and prints one row per page and preset", () => {
    const runs = [
      figuresOf(lhr(0.58, 4200, [["http://127.0.0.1:4050/a.js", 300_000]])),
      figuresOf(lhr(0.91, 1500, [["http://127.0.0.1:4050/a.js", 100_000]])),
      figuresOf(lhr(0.87, 1800, [["http://127.0.0.1:4050/a.js", 200_000]])),
    ];
    const figures = medianFigures(runs);
    expect(figures).toEqual({
      performance: 87,
      accessibility: 100,
      bestPractices: 96,
      lcpMs: 1800,
      tbtMs: 120,
      firstLoadJsBytes: 200_000,
    });
    const table = formatTable([{ page: "/players/P000007", preset: "mobile", runs: 3, figures }]);
    expect(table.split("\n")).toEqual([
      "| page | preset | runs | perf | a11y | best practices | LCP | TBT | first-load JS | vs reference: perf, TBT |",
      "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
      "| /players/P000007 | mobile | 3 | 87 | 100 | 96 | 1.8 s | 120 ms | 195 KB | – |",
    ]);
  });

  it("compares each row with its own preset's reference row", () => {
    const row = (page: string, preset: "mobile" | "desktop", performance: number, tbtMs: number) => ({
      page,
      preset,
      runs: 3,
      figures: { ...figuresOf(lhr(performance / 100, 1000, [])), performance, tbtMs },
    });
    const lines = formatTable([
      { ...row("/problems", "mobile", 85, 500), reference: true },
      row("/players/P000007", "mobile", 68, 1550),
      row("/portfolio", "mobile", 90, 400),
      { ...row("/problems", "desktop", 100, 0), reference: true },
      row("/players/P000007", "desktop", 100, 0),
    ]).split("\n");
    expect(lines.map((l) => l.split(" | ").at(-1))).toEqual([
      "vs reference: perf, TBT |",
      "--- |",
      "reference |",
      "−17, 3.1× |",
      "+5, 0.8× |",
      "reference |",
      "±0, – |",
    ]);
    expect(lines[2]).toMatch(/^\| \/problems \(reference\) \| mobile \|/);
  });
});
