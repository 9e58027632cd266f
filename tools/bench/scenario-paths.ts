/** Each scenario's request paths on the product and on the baseline, from the data the bench picked. */

import { httpGet, isFailure } from "../../test/support/app-process.ts";
import { BENCH_BOOK_MANAGER } from "../data/generate-dataset.ts";
import type { BenchData } from "./pick-bench-data.ts";
import type { ScenarioName } from "./scenarios.ts";

export interface ScenarioPaths {
  product: string;
  baseline: string;
}

export function scenarioPaths(
  name: ScenarioName,
  d: BenchData,
  cursor: string | null,
): ScenarioPaths | string {
  const players = "/api/v1/players";
  const list = (id: string, query: Record<string, string>) =>
    `${players}/${encodeURIComponent(id)}/transactions?${new URLSearchParams(query)}`;
  const same = (p: string) => ({ product: p, baseline: p });
  switch (name) {
    case "profile":
      return same(`${players}/${encodeURIComponent(d.whale.id)}`);
    case "small-first-page":
      return same(list(d.small.id, { limit: "20" }));
    case "whale-first-page":
      return same(list(d.whale.id, { limit: "20" }));
    case "whale-type-date":
      return same(
        list(d.whale.id, {
          event_type: d.typeDate.eventType,
          from_date: d.typeDate.fromDate,
          to_date: d.typeDate.toDate,
          limit: "20",
        }),
      );
    case "whale-event-name":
      return same(list(d.whale.id, { event_name: d.eventName.value, limit: "20" }));
    case "whale-offset":
      return same(list(d.whale.id, { limit: "20", offset: String(d.depth) }));
    case "whale-cursor":
      if (d.depth > 0 && !cursor) return "the product returned no next_cursor at the depth";
      return {
        product: list(d.whale.id, cursor ? { cursor, limit: "20" } : { limit: "20" }),
        // The straightforward way to the same rows.
        baseline: list(d.whale.id, { limit: "20", offset: String(d.depth) }),
      };
    case "summary":
      return same(`${players}/${encodeURIComponent(d.whale.id)}/summary?period=365d`);
    case "whale-summary-all":
      return same(`${players}/${encodeURIComponent(d.whale.id)}/summary?period=all`);
    case "whale-sort-amount":
      return same(list(d.whale.id, { sort: "amount_desc", limit: "20" }));
    case "search-name":
      return same(`${players}?${new URLSearchParams({ q: d.search.name })}`);
    case "search-transaction-id":
      return same(`${players}?${new URLSearchParams({ q: d.search.transactionId })}`);

    case "portfolio":
    case "portfolio-whole":
      if (d.book.players === 0)
        return `no players of "${BENCH_BOOK_MANAGER}" (generate the data with db:generate)`;
      return same(`/api/v1/portfolio?${new URLSearchParams({ manager: BENCH_BOOK_MANAGER })}`);
    case "bulk":
      return "a copy, not a page: measured by tools/bench/bulk-copy.ts";
    case "export-csv": {
      const filters = { from_date: d.export.fromDate };
      return {
        product: `${players}/${encodeURIComponent(d.whale.id)}/transactions/export?${new URLSearchParams({ format: "csv", ...filters })}`,
        baseline: `${players}/${encodeURIComponent(d.whale.id)}/transactions/export?${new URLSearchParams(filters)}`,
      };
    }
  }
}

/** next_cursor after `depth` rows: the cursor of a one-row page at offset depth−1. */
export async function cursorAtDepth(
  productUrl: string,
  d: BenchData,
  headers: Record<string, string>,
): Promise<string | null> {
  if (d.depth === 0) return null;
  const url = `${productUrl}/api/v1/players/${encodeURIComponent(d.whale.id)}/transactions?limit=1&offset=${d.depth - 1}`;
  const res = await httpGet(url, headers, 120_000);
  if (isFailure(res) || res.status !== 200) return null;
  const body = JSON.parse(res.body) as { next_cursor?: unknown };
  return typeof body.next_cursor === "string" ? body.next_cursor : null;
}
