import { median } from "../median.ts";
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
  /** CPU time (user + system) of the server's process tree per completed request, in µs. */
  cpuUsPerRequest?: number;
}

export interface ResultRow {
  scenario: ScenarioName;
  concurrency: number;
  product: Measurement | null;
  baseline: Measurement | null;
  /** The floor app (tools/bench/floor-app), on the scenarios it answers (hasFloor); absent on the others. */
  floor?: Measurement | null;
  /** The product's throughput over the floor's (baseline's) in each interleaved round. */
  floorRatios?: number[];
  baselineRatios?: number[];
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
  /** The bulk scenario: rows a machine client copies per second through GET /transactions. */
  bulkRowsPerSecond: 100_000,
} as const;

/**
 * One side's rounds as one measurement: the median of each rate, latency and CPU figure, the sums of the
 * counts. Null when the side was measured in no round.
 */
export function combineRounds(rounds: readonly Measurement[]): Measurement | null {
  if (rounds.length === 0) return null;
  const statuses: Record<string, number> = {};
  for (const r of rounds)
    for (const [code, n] of Object.entries(r.statuses)) statuses[code] = (statuses[code] ?? 0) + n;
  const sum = (pick: (m: Measurement) => number) => rounds.reduce((total, m) => total + pick(m), 0);
  const cpu = rounds.map((r) => r.cpuUsPerRequest).filter((c): c is number => c !== undefined);
  return {
    rps: median(rounds.map((r) => r.rps)),
    p50: median(rounds.map((r) => r.p50)),
    p99: median(rounds.map((r) => r.p99)),
    requests: sum((r) => r.requests),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statuses,
    ...(cpu.length ? { cpuUsPerRequest: median(cpu) } : {}),
  };
}

/** `items` starting at `shift` (modulo its length), wrapping around: the order of the sides in a round. */
export function rotate<T>(items: readonly T[], shift: number): T[] {
  const n = items.length;
  const at = n === 0 ? 0 : ((shift % n) + n) % n;
  return [...items.slice(at), ...items.slice(0, at)];
}

/** Each round's throughput ratio, where both sides were measured in it. */
export function roundRatios(
  a: readonly (Measurement | null)[],
  b: readonly (Measurement | null)[],
): number[] {
  return a.flatMap((m, i) => {
    const other = b[i];
    return m && other && other.rps > 0 ? [m.rps / other.rps] : [];
  });
}

const rpsRatio = (
  a: Measurement | null | undefined,
  b: Measurement | null | undefined,
  perRound: readonly number[] | undefined,
): number | null => {
  if (!a || !b) return null;
  if (perRound?.length) return median(perRound);
  return b.rps > 0 ? a.rps / b.rps : null;
};

/** The product's throughput over the bare baseline's (the median of the rounds' ratios). */
export const ratio = (row: ResultRow): number | null =>
  rpsRatio(row.product, row.baseline, row.baselineRatios);

/** The product's throughput over the floor's (the median of the rounds' ratios). */
export const floorRatio = (row: ResultRow): number | null =>
  rpsRatio(row.product, row.floor, row.floorRatios);

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

/** Peak resident memory of each side, sampled over the whole run. */
export interface PeakMemory {
  samples: number;
  /** The product's process tree (`npm start`: the launcher and the Next.js server). */
  productMiB: number;
  /** The product's Next.js server process tree alone. */
  serverMiB: number | null;
  /** The floor's Next.js server (same start settings, started without a launcher). */
  floorMiB: number | null;
}

/**
 * The memory line of the report. The floor is the reference: on Node 24 V8's young generation grows under load
 * in any Next.js server with these settings, so the product's figure alone does not say what is the product's.
 */
export function memoryLine(peak: PeakMemory): string {
  const mb = (miB: number) => `${Math.round(miB)} MB`;
  const parts = [
    `Product peak RSS (process tree of \`npm start\`, sampled every 200 ms over ${peak.samples} samples): ${mb(peak.productMiB)}`,
  ];
  if (peak.serverMiB !== null) parts.push(` (Next.js server process tree alone: ${mb(peak.serverMiB)})`);
  if (peak.floorMiB !== null) {
    parts.push(`; the floor's Next.js server, same start settings, in the same run: ${mb(peak.floorMiB)}`);
  }
  return parts.join("");
}

export function fmtMs(ms: number): string {
  if (!Number.isFinite(ms)) return "-";
  return ms < 10 ? ms.toFixed(1) : String(Math.round(ms));
}

export function fmtRps(rps: number): string {
  if (!Number.isFinite(rps)) return "-";
  return rps < 10 ? rps.toFixed(2) : rps < 100 ? rps.toFixed(1) : String(Math.round(rps));
}

/** One row as the run prints it when measured: each side's figures and the ratios. */
export function progressLine(row: ResultRow): string {
  const side = (m: Measurement | null) =>
    m
      ? `${fmtRps(m.rps)} req/s p50 ${fmtMs(m.p50)} p99 ${fmtMs(m.p99)} ms${m.cpuUsPerRequest === undefined ? "" : ` ${Math.round(m.cpuUsPerRequest)} µs CPU/req`}`
      : "not measured";
  const times = (r: number | null, of: string) => (r === null ? "" : ` | ${r.toFixed(2)}× ${of}`);
  const floor = row.floor === undefined ? "" : ` | floor ${side(row.floor)}`;
  return `${row.scenario} c${row.concurrency}: product ${side(row.product)}${floor} | baseline ${side(row.baseline)}${times(floorRatio(row), "the floor")}${times(ratio(row), "the baseline")}`;
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
    "product CPU µs/req",
    "floor CPU µs/req",
    "product RSS MB",
  ];
  const times = (r: number | null, rounds?: readonly number[]) => {
    if (r === null) return "-";
    if (!rounds || rounds.length < 2) return `${r.toFixed(2)}×`;
    return `${r.toFixed(2)}× (${Math.min(...rounds).toFixed(2)}–${Math.max(...rounds).toFixed(2)})`;
  };
  const cpu = (m: Measurement | null | undefined) =>
    m?.cpuUsPerRequest === undefined ? "-" : String(Math.round(m.cpuUsPerRequest));
  const body = rows.map((row) => {
    return [
      row.scenario,
      String(row.concurrency),
      ...cells(row.product),
      ...cells(row.floor),
      ...cells(row.baseline),
      times(floorRatio(row), row.floorRatios),
      times(ratio(row), row.baselineRatios),
      cpu(row.product),
      cpu(row.floor),
      row.productRssMiB === undefined ? "-" : String(Math.round(row.productRssMiB)),
    ];
  });
  const widths = header.map((h, i) => Math.max(h.length, ...body.map((b) => (b[i] ?? "").length)));
  const line = (values: string[]) =>
    `| ${values.map((v, i) => (i < 2 ? v.padEnd(widths[i] ?? 0) : v.padStart(widths[i] ?? 0))).join(" | ")} |`;
  const rule = `|${widths.map((w, i) => (i < 2 ? `-${"-".repeat(w)}-` : `${"-".repeat(w + 1)}:`)).join("|")}|`;
  return [line(header), rule, ...body.map(line)].join("\n");
}
