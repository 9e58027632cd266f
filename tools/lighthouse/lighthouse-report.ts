/*
 * Reading Lighthouse reports: the figures the targets name, the median of several runs, and the
 * table `npm run lighthouse` prints. Pure functions, so that they can be tested without a browser.
 */

import { median } from "../median.ts";
export interface RunFigures {
  performance: number;
  accessibility: number;
  bestPractices: number;
  /** Largest contentful paint, milliseconds. */
  lcpMs: number;
  /** Total blocking time, milliseconds. */
  tbtMs: number;
  /** Bytes over the wire (gzip) of the page's own scripts on its first load. */
  firstLoadJsBytes: number;
}

interface NetworkItem {
  url?: string;
  resourceType?: string;
  transferSize?: number;
}

/** The part of a Lighthouse JSON result (LHR) read here. */
export interface LighthouseResult {
  finalDisplayedUrl?: string;
  finalUrl?: string;
  categories: Record<string, { score: number | null } | undefined>;
  audits: Record<string, { numericValue?: number; details?: { items?: NetworkItem[] } } | undefined>;
}

const score = (lhr: LighthouseResult, id: string) => Math.round((lhr.categories[id]?.score ?? 0) * 100);
const numeric = (lhr: LighthouseResult, id: string) => lhr.audits[id]?.numericValue ?? Number.NaN;

/**
 * First-load JS: the transfer size (compressed bytes, headers included, as Lighthouse recorded them) of
 * every script the page loaded from its own origin during the audited load.
 */
export function firstLoadJsBytes(lhr: LighthouseResult): number {
  const origin = new URL(lhr.finalDisplayedUrl ?? lhr.finalUrl ?? "").origin;
  const items = lhr.audits["network-requests"]?.details?.items ?? [];
  return items
    .filter((item) => item.resourceType === "Script" && item.url && new URL(item.url).origin === origin)
    .reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
}

export function figuresOf(lhr: LighthouseResult): RunFigures {
  return {
    performance: score(lhr, "performance"),
    accessibility: score(lhr, "accessibility"),
    bestPractices: score(lhr, "best-practices"),
    lcpMs: numeric(lhr, "largest-contentful-paint"),
    tbtMs: numeric(lhr, "total-blocking-time"),
    firstLoadJsBytes: firstLoadJsBytes(lhr),
  };
}

/** Each figure's median over the runs, taken figure by figure. */
export function medianFigures(runs: readonly RunFigures[]): RunFigures {
  const of = (key: keyof RunFigures) => median(runs.map((r) => r[key]));
  return {
    performance: of("performance"),
    accessibility: of("accessibility"),
    bestPractices: of("bestPractices"),
    lcpMs: of("lcpMs"),
    tbtMs: of("tbtMs"),
    firstLoadJsBytes: of("firstLoadJsBytes"),
  };
}

export interface TableRow {
  page: string;
  preset: "mobile" | "desktop";
  runs: number;
  figures: RunFigures;
  /** This row is the reference the other rows of its preset are compared with. */
  reference?: boolean;
}

const COLUMNS = [
  "page",
  "preset",
  "runs",
  "perf",
  "a11y",
  "best practices",
  "LCP",
  "TBT",
  "first-load JS",
  "vs reference: perf, TBT",
];

/**
 * A row's score and blocking time against its preset's reference row, measured in the same minutes: "−12,
 * 3.1×". Lighthouse's simulated throttling multiplies the machine's own task times, so on a slower or busier
 * machine every page scores lower alike; the difference from a page of the same stack tells the page's own
 * cost apart from the machine's.
 */
function versusReference(row: TableRow, reference: TableRow | undefined): string {
  if (!reference) return "–";
  if (row === reference) return "reference";
  const delta = row.figures.performance - reference.figures.performance;
  const ratio =
    reference.figures.tbtMs > 0 ? `${(row.figures.tbtMs / reference.figures.tbtMs).toFixed(1)}×` : "–";
  return `${delta > 0 ? "+" : delta < 0 ? "−" : "±"}${Math.abs(delta)}, ${ratio}`;
}

/** A Markdown table (it reads as plain text in a terminal too). */
export function formatTable(rows: readonly TableRow[]): string {
  const cells = rows.map((r) => [
    r.reference ? `${r.page} (reference)` : r.page,
    r.preset,
    String(r.runs),
    String(r.figures.performance),
    String(r.figures.accessibility),
    String(r.figures.bestPractices),
    `${(r.figures.lcpMs / 1000).toFixed(1)} s`,
    `${Math.round(r.figures.tbtMs)} ms`,
    `${(r.figures.firstLoadJsBytes / 1024).toFixed(0)} KB`,
    versusReference(
      r,
      rows.find((x) => x.reference && x.preset === r.preset),
    ),
  ]);
  const line = (values: readonly string[]) => `| ${values.join(" | ")} |`;
  return [line(COLUMNS), line(COLUMNS.map(() => "---")), ...cells.map(line)].join("\n");
}
