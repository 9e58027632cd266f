import {
  hasFloor,
  isLatencyTargeted,
  latencyTargetMs,
  type ScenarioName,
  scenarioKind,
} from "./scenarios.ts";

/** One server's figures for one scenario at one concurrency. Latencies in ms. */
export interface Measurement {
  rps: number;
  p50: number;
  p99: number;
  /** Completed responses. */
  requests: number;
  non2xx: number;
  /** Socket errors, including timeouts. */
  errors: number;
  timeouts: number;
  /** Response status → count. */
  statuses: Record<string, number>;
}

export interface ResultRow {
  scenario: ScenarioName;
  concurrency: number;
  product: Measurement | null;
  baseline: Measurement | null;
  /** The floor app (tools/bench/floor-app), on the scenarios it answers (hasFloor); absent on the others. */
  floor?: Measurement | null;
  /** The product's peak RSS while this row ran (MiB). */
  productRssMiB?: number;
  /** Why a side was not measured. */
  note?: string;
}

export const TARGETS = {
  /** Cheap reads, against the floor: a minimal Next.js route doing the same Prisma reads. */
  cheapFloorRatio: 0.85,
  /** Whale reads, against the bare baseline's straightforward SQL. */
  whaleRatio: 1.0,
  p99Ms: 50,
  peakRssMiB: 400,
} as const;

const rpsRatio = (a: Measurement | null | undefined, b: Measurement | null | undefined): number | null =>
  a && b && b.rps > 0 ? a.rps / b.rps : null;

/** The product's throughput over the bare baseline's. */
export const ratio = (row: ResultRow): number | null => rpsRatio(row.product, row.baseline);

/** The product's throughput over the floor's. */
export const floorRatio = (row: ResultRow): number | null => rpsRatio(row.product, row.floor);

const label = (row: ResultRow) => `${row.scenario}@c${row.concurrency}`;

function describeFailures(side: string, m: Measurement): string | null {
  if (m.non2xx === 0 && m.errors === 0) return null;
  const codes = Object.entries(m.statuses)
    .filter(([code]) => !code.startsWith("2"))
    .map(([code, n]) => `${code}×${n}`);
  const parts = [
    m.non2xx ? `${m.non2xx} non-2xx${codes.length ? ` (${codes.join(" ")})` : ""}` : "",
    m.errors ? `${m.errors} socket errors${m.timeouts ? ` (${m.timeouts} timeouts)` : ""}` : "",
  ].filter(Boolean);
  return `${side} ${parts.join(", ")}`;
}

/** Every target the run misses, one readable line each; empty when it meets them all. */
export function checkTargets(rows: readonly ResultRow[], peakRssMiB: number | null): string[] {
  const failures: string[] = [];
  for (const row of rows) {
    const withFloor = hasFloor(row.scenario);
    if (!row.product || !row.baseline || (withFloor && !row.floor)) {
      failures.push(`${label(row)} not measured${row.note ? ` (${row.note})` : ""}`);
    }
    for (const [side, m] of [
      ["product", row.product],
      ["floor", row.floor],
      ["baseline", row.baseline],
    ] as const) {
      const problem = m && describeFailures(side, m);
      if (problem) failures.push(`${label(row)} ${problem}`);
      if (m && m.requests === 0) failures.push(`${label(row)} ${side} completed no request`);
    }
    const [r, min, against] = withFloor
      ? [floorRatio(row), TARGETS.cheapFloorRatio, " of the floor"]
      : [ratio(row), TARGETS.whaleRatio, ""];
    if (r !== null && r < min) failures.push(`${label(row)} throughput ${r.toFixed(2)}× < ${min}×${against}`);
    if (row.concurrency === 1 && row.product && isLatencyTargeted(row.scenario)) {
      const own = latencyTargetMs(row.scenario, 0);
      // A scenario's own target reads "p99 ≤ own"; the default one "p99 < 50 ms".
      if (own > 0 && !(row.product.p99 <= own)) {
        failures.push(`${label(row)} p99 ${fmtMs(row.product.p99)} ms > ${own} ms`);
      } else if (own === 0 && !(row.product.p99 < TARGETS.p99Ms)) {
        failures.push(`${label(row)} p99 ${fmtMs(row.product.p99)} ms ≥ ${TARGETS.p99Ms} ms`);
      }
    }
  }
  if (peakRssMiB === null) failures.push("peak RSS not sampled");
  else if (!(peakRssMiB < TARGETS.peakRssMiB)) {
    failures.push(`peak RSS ${Math.round(peakRssMiB)} MB ≥ ${TARGETS.peakRssMiB} MB`);
  }
  return failures;
}

/** The last line of every run: PASS or FAIL, the headline figures and each failed check. */
export function summaryLine(rows: readonly ResultRow[], peakRssMiB: number | null): string {
  const failures = checkTargets(rows, peakRssMiB);
  const ratios = (kind: "cheap" | "whale", of: (row: ResultRow) => number | null) =>
    rows
      .filter((r) => scenarioKind(r.scenario) === kind)
      .map(of)
      .filter((r): r is number => r !== null);
  const minOf = (xs: number[]) => (xs.length ? `${Math.min(...xs).toFixed(2)}×` : "n/a");
  const p99s = rows
    .filter((r) => r.concurrency === 1 && r.product && isLatencyTargeted(r.scenario))
    .map((r) => r.product?.p99 ?? 0);
  const head = [
    `${rows.length} measurements`,
    `min cheap ratio to the floor ${minOf(ratios("cheap", floorRatio))}`,
    `min whale ratio ${minOf(ratios("whale", ratio))}`,
    `max c1 p99 ${p99s.length ? `${fmtMs(Math.max(...p99s))} ms` : "n/a"}`,
    `peak RSS ${peakRssMiB === null ? "n/a" : `${Math.round(peakRssMiB)} MB`}`,
  ].join(", ");
  return failures.length ? `SUMMARY FAIL ${head}; failed: ${failures.join("; ")}` : `SUMMARY PASS ${head}`;
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

export function fmtRps(rps: number): string {
  if (!Number.isFinite(rps)) return "-";
  return rps < 10 ? rps.toFixed(2) : rps < 100 ? rps.toFixed(1) : String(Math.round(rps));
}

const cells = (m: Measurement | null | undefined) =>
  m ? [fmtRps(m.rps), fmtMs(m.p50), fmtMs(m.p99)] : ["-", "-", "-"];

/** Markdown table, columns padded so it also reads well in a terminal. */
export function formatTable(rows: readonly ResultRow[]): string {
  const header = [
    "scenario",
    "c",
    "product req/s",
    "p50 ms",
    "p99 ms",
    "floor req/s",
    "p50 ms",
    "p99 ms",
    "baseline req/s",
    "p50 ms",
    "p99 ms",
    "vs floor",
    "vs baseline",
    "product RSS MB",
  ];
  const times = (r: number | null) => (r === null ? "-" : `${r.toFixed(2)}×`);
  const body = rows.map((row) => {
    return [
      row.scenario,
      String(row.concurrency),
      ...cells(row.product),
      ...cells(row.floor),
      ...cells(row.baseline),
      times(floorRatio(row)),
      times(ratio(row)),
      row.productRssMiB === undefined ? "-" : String(Math.round(row.productRssMiB)),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (values: string[]) =>
    `| ${values.map((v, i) => (i < 2 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `-${"-".repeat(w)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
