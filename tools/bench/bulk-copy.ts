/*
 * The `bulk` scenario of `npm run bench`: a machine client copies every transaction through
 * GET /api/v1/transactions, pages of 1,000 in (updated_at, id) order, each page's next_cursor asked for as soon as
 * the previous page arrived (one connection, kept alive), until has_more is false or --bulk-rows are read.
 * Reported as rows/s over the copy's wall time, with the page latencies; the target is TARGETS.bulkRowsPerSecond.
 */
import { median } from "../median.ts";

export const BULK_PAGE = 1_000;

export interface BulkCopyResult {
  rows: number;
  pages: number;
  seconds: number;
  rowsPerSecond: number;
  /** Per page, request sent → body parsed (ms). */
  p50: number;
  p99: number;
  /** First status other than 200, if the copy stopped on one. */
  failure: string | null;
}

const percentile = (sorted: readonly number[], p: number) =>
  sorted.length ? (sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? 0) : 0;

/** Copies from the start (or until `maxRows`), following next_cursor; every page's rows are counted, not kept. */
export async function copyAllTransactions(
  baseUrl: string,
  headers: Record<string, string>,
  maxRows = Number.POSITIVE_INFINITY,
): Promise<BulkCopyResult> {
  const latencies: number[] = [];
  let rows = 0;
  let cursor: string | null = null;
  let failure: string | null = null;
  const started = performance.now();
  for (;;) {
    const query = new URLSearchParams({ limit: String(BULK_PAGE) });
    if (cursor) query.set("cursor", cursor);
    const sent = performance.now();
    const res = await fetch(`${baseUrl}/api/v1/transactions?${query}`, { headers });
    const text = await res.text();
    if (res.status !== 200) {
      failure = `HTTP ${res.status}: ${text.slice(0, 200)}`;
      break;
    }
    const page = JSON.parse(text) as {
      transactions: unknown[];
      has_more: boolean;
      next_cursor: string | null;
    };
    latencies.push(performance.now() - sent);
    rows += page.transactions.length;
    cursor = page.next_cursor;
    if (!page.has_more || !cursor || rows >= maxRows) break;
  }
  const seconds = (performance.now() - started) / 1000;
  const sorted = [...latencies].sort((a, b) => a - b);
  return {
    rows,
    pages: latencies.length,
    seconds,
    rowsPerSecond: seconds > 0 ? rows / seconds : 0,
    p50: median(latencies),
    p99: percentile(sorted, 99),
    failure,
  };
}

/** The report's line for a copy. */
export function bulkLine(r: BulkCopyResult, target: number): string {
  const verdict = r.failure ? `FAILED (${r.failure})` : r.rowsPerSecond >= target ? "meets" : "BELOW";
  return `bulk copy: ${r.rows.toLocaleString("en-US")} rows in ${r.pages.toLocaleString("en-US")} pages of ${BULK_PAGE} in ${r.seconds.toFixed(1)} s = ${Math.round(r.rowsPerSecond).toLocaleString("en-US")} rows/s (page p50 ${r.p50.toFixed(1)} ms, p99 ${r.p99.toFixed(1)} ms): ${verdict} the target of ≥ ${target.toLocaleString("en-US")} rows/s`;
}

/** The summary with the bulk copy's figure, failed when the copy failed or fell below its target. */
export function withBulk(summary: string, bulk: BulkCopyResult | null, target = 100_000): string {
  if (!bulk) return summary;
  const figure = `bulk ${Math.round(bulk.rowsPerSecond).toLocaleString("en-US")} rows/s over ${bulk.rows.toLocaleString("en-US")} rows`;
  const failed = bulk.failure !== null || bulk.rowsPerSecond < target;
  const [head, failures] = summary.replace(/^SUMMARY (PASS|FAIL) /, "").split("; failed: ");
  const all = [
    failures,
    failed ? `bulk ${bulk.failure ?? `< ${target.toLocaleString("en-US")} rows/s`}` : undefined,
  ].filter(Boolean);
  return all.length
    ? `SUMMARY FAIL ${head}, ${figure}; failed: ${all.join("; ")}`
    : `SUMMARY PASS ${head}, ${figure}`;
}
