import { describe, expect, it } from "vitest";
import {
  checkTargets,
  combineRounds,
  floorRatio,
  formatTable,
  type Measurement,
  memoryLine,
  progressLine,
  type ResultRow,
  ratio,
  rotate,
  roundRatios,
  summaryLine,
} from "./report.ts";

const m = (rps: number, p99 = 5, extra: Partial<Measurement> = {}): Measurement => ({
  rps,
  p50: p99 / 2,
  p99,
  requests: Math.round(rps * 8),
  non2xx: 0,
  errors: 0,
  timeouts: 0,
  statuses: { "200": Math.round(rps * 8) },
  ...extra,
});

const row = (
  scenario: ResultRow["scenario"],
  concurrency: number,
  product: Measurement | null,
  baseline: Measurement | null,
  floor?: Measurement | null,
): ResultRow => ({
  scenario,
  concurrency,
  product,
  baseline,
  ...(floor === undefined ? {} : { floor }),
});

const passing: ResultRow[] = [
  // Far below the bare baseline, but at 0.85× and 0.9× the floor.
  row("profile", 1, m(425), m(2000), m(500)),
  row("profile", 32, m(900), m(4000), m(1000)),
  row("whale-offset", 1, m(300), m(30)),
  row("whale-offset", 32, m(500), m(50, 800)),
  // The export is exempt from the 50 ms latency target.
  row("export-csv", 1, m(2, 900), m(1, 1500)),
];

describe("targets", () => {
  it("passes when every target is met", () => {
    expect(checkTargets(passing, 250)).toEqual([]);
    expect(summaryLine(passing, 250)).toBe(
      "SUMMARY PASS 5 measurements, min cheap ratio to the floor 0.85×, min whale ratio 2.00×, max c1 p99 5.0 ms, peak RSS 250 MB",
    );
  });

  it("needs 0.85× the floor on cheap scenarios, whatever the baseline, and 1.0× the baseline on whale scenarios", () => {
    const rows = [
      // 0.84× the floor fails though the product is 1.68× the baseline.
      row("small-first-page", 1, m(84), m(50), m(100)),
      row("small-first-page", 32, m(85), m(1000), m(100)),
      row("whale-first-page", 32, m(99), m(100)),
    ];
    expect(checkTargets(rows, 100)).toEqual([
      "small-first-page@c1 throughput 0.84× < 0.85× of the floor",
      "whale-first-page@c32 throughput 0.99× < 1×",
    ]);
  });

  it("counts a cheap row without the floor as not measured, and names the floor's failures", () => {
    const rows = [
      row("profile", 1, m(600), m(1000)),
      { ...row("profile", 32, m(600), m(1000), null), note: "floor HTTP 404" },
      row("small-first-page", 1, m(600), m(1000), m(600, 5, { non2xx: 2, statuses: { "200": 9, "500": 2 } })),
      row("small-first-page", 32, m(600), m(1000), m(0)),
    ];
    expect(checkTargets(rows, 100)).toEqual([
      "profile@c1 not measured",
      "profile@c32 not measured (floor HTTP 404)",
      "small-first-page@c1 floor 2 non-2xx (500×2)",
      "small-first-page@c32 floor completed no request",
    ]);
    expect(summaryLine(rows, 100)).toMatch(
      /^SUMMARY FAIL 4 measurements, min cheap ratio to the floor 1\.00×, /,
    );
  });

  it("checks p99 at concurrency 1 only, and RSS", () => {
    const rows = [row("whale-cursor", 1, m(100, 50), m(10)), row("whale-cursor", 32, m(100, 900), m(10))];
    expect(checkTargets(rows, 400)).toEqual([
      "whale-cursor@c1 p99 50 ms ≥ 50 ms",
      "peak RSS 400 MB ≥ 400 MB",
    ]);
    expect(checkTargets([], null)).toEqual(["peak RSS not sampled"]);
  });

  it("fails on non-2xx answers, socket errors and unmeasured sides, naming each", () => {
    const rows = [
      row("profile", 1, m(600, 5, { non2xx: 3, statuses: { "200": 10, "429": 3 } }), m(1000), m(600)),
      row("whale-first-page", 1, m(600), m(100, 5, { errors: 2, timeouts: 2 })),
      { ...row("export-csv", 1, null, m(1, 900)), note: "product HTTP 404" },
    ];
    const summary = summaryLine(rows, 100);
    expect(summary).toMatch(/^SUMMARY FAIL /);
    expect(checkTargets(rows, 100)).toEqual([
      "profile@c1 product 3 non-2xx (429×3)",
      "whale-first-page@c1 baseline 2 socket errors (2 timeouts)",
      "export-csv@c1 not measured (product HTTP 404)",
    ]);
    expect(summary.split("\n")).toHaveLength(1);
  });

  it("has no ratio without both sides or with an idle baseline", () => {
    expect(ratio(row("profile", 1, m(10), null))).toBeNull();
    expect(ratio(row("profile", 1, m(10), m(0)))).toBeNull();
    expect(ratio(row("profile", 1, m(10), m(20)))).toBe(0.5);
    expect(floorRatio(row("profile", 1, m(10), m(20)))).toBeNull();
    expect(floorRatio(row("profile", 1, m(10), m(20), m(0)))).toBeNull();
    expect(floorRatio(row("profile", 1, m(10), m(20), m(8)))).toBe(1.25);
  });
});

describe("formatTable", () => {
  it("writes an aligned Markdown table with the ratios to the floor and to the baseline", () => {
    const table = formatTable([
      { ...row("profile", 1, m(612.4, 3.25), m(1000, 12.6), m(680, 4)), productRssMiB: 250.4 },
      row("export-csv", 32, null, m(1.5, 20000)),
    ]);
    const lines = table.split("\n");
    expect(lines[0]).toMatch(
      /^\| scenario +\| c +\| product req\/s \| p50 ms \| p99 ms \| floor req\/s \| p50 ms \| p99 ms \| baseline req\/s \| p50 ms \| p99 ms \| vs floor \| vs baseline \| product CPU µs\/req \| floor CPU µs\/req \| product RSS MB \|$/,
    );
    expect(lines[1]).toMatch(/^\|[-|:]+\|$/);
    expect(lines[2]?.split("|").map((c) => c.trim())).toEqual([
      "",
      "profile",
      "1",
      "612",
      "1.6",
      "3.3",
      "680",
      "2.0",
      "4.0",
      "1000",
      "6.3",
      "13",
      "0.90×",
      "0.61×",
      "-",
      "-",
      "250",
      "",
    ]);
    expect(lines[3]?.split("|").map((c) => c.trim())).toEqual([
      "",
      "export-csv",
      "32",
      "-",
      "-",
      "-",
      "-",
      "-",
      "-",
      "1.50",
      "10000",
      "20000",
      "-",
      "-",
      "-",
      "-",
      "-",
      "",
    ]);
    // Every line has the same width.
    expect(new Set(lines.map((l) => l.length)).size).toBe(1);
  });

  it("shows the median of the rounds' ratios with their range, and each side's CPU per request", () => {
    const table = formatTable([
      {
        ...row(
          "profile",
          32,
          m(850, 40, { cpuUsPerRequest: 1234.4 }),
          m(4000),
          m(1000, 30, { cpuUsPerRequest: 1000 }),
        ),
        floorRatios: [0.8, 0.9, 0.86],
      },
    ]);
    const cells = table
      .split("\n")[2]
      ?.split("|")
      .map((c) => c.trim());
    expect(cells?.slice(12, 16)).toEqual(["0.86× (0.80–0.90)", "0.21×", "1234", "1000"]);
  });
});

describe("rounds", () => {
  it("combines a side's rounds into medians and sums", () => {
    const combined = combineRounds([
      m(100, 10, { cpuUsPerRequest: 900, non2xx: 1, statuses: { "200": 799, "503": 1 } }),
      m(300, 30, { cpuUsPerRequest: 1100 }),
      m(200, 20, { cpuUsPerRequest: 1000 }),
    ]);
    expect(combined).toMatchObject({ rps: 200, p99: 20, p50: 10, cpuUsPerRequest: 1000, non2xx: 1 });
    expect(combined?.requests).toBe(800 + 2400 + 1600);
    expect(combined?.statuses).toEqual({ "200": 799 + 2400 + 1600, "503": 1 });
    expect(combineRounds([])).toBeNull();
  });

  it("takes the ratio to the floor from the rounds, not from the medians of each side", () => {
    // Round 2 was slow for both sides: its ratio still counts like the others.
    const product = [m(900), m(450), m(880)];
    const floor = [m(1000), m(500), m(1100)];
    const ratios = roundRatios(product, floor);
    expect(ratios).toEqual([0.9, 0.9, 0.8]);
    const r: ResultRow = {
      ...row("profile", 1, combineRounds(product), m(4000), combineRounds(floor)),
      floorRatios: ratios,
    };
    expect(floorRatio(r)).toBe(0.9);
    expect(roundRatios([m(1), null], [m(2), m(2)])).toEqual([0.5]);
  });

  it("rotates the sides so that over as many rounds as sides each runs once in every position", () => {
    const orders = [0, 1, 2].map((r) => rotate(["product", "floor", "baseline"], r).join(" "));
    expect(orders).toEqual(["product floor baseline", "floor baseline product", "baseline product floor"]);
    expect(rotate(["a", "b"], 3)).toEqual(["b", "a"]);
    expect(rotate([], 1)).toEqual([]);
  });
});

describe("progressLine", () => {
  it("prints each side's figures, CPU when measured, the ratios, and a side not measured as such", () => {
    expect(progressLine(row("profile", 1, m(425, 5, { cpuUsPerRequest: 812.4 }), m(2000), m(500)))).toBe(
      "profile c1: product 425 req/s p50 2.5 p99 5.0 ms 812 µs CPU/req | floor 500 req/s p50 2.5 p99 5.0 ms" +
        " | baseline 2000 req/s p50 2.5 p99 5.0 ms | 0.85× the floor | 0.21× the baseline",
    );
    expect(progressLine(row("whale-offset", 32, m(7.5, 120), null))).toBe(
      "whale-offset c32: product 7.50 req/s p50 60 p99 120 ms | baseline not measured",
    );
  });
});

describe("memoryLine", () => {
  it("gives the product's tree, its server alone and the floor's server of the same run", () => {
    expect(memoryLine({ samples: 4403, productMiB: 400.6, serverMiB: 352.2, floorMiB: 331.4 })).toBe(
      "Product peak RSS (process tree of `npm start`, sampled every 200 ms over 4403 samples): 401 MB " +
        "(Next.js server process tree alone: 352 MB); the floor's Next.js server, same start settings, in the same run: 331 MB",
    );
  });

  it("leaves out the sides that were not sampled", () => {
    expect(memoryLine({ samples: 10, productMiB: 250, serverMiB: null, floorMiB: null })).toBe(
      "Product peak RSS (process tree of `npm start`, sampled every 200 ms over 10 samples): 250 MB",
    );
  });
});
