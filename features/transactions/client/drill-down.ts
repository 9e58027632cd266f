import type { EventTypeValue as EventType } from "./transaction-url-state.ts";

const DAY_MS = 86_400_000;

export interface DrillDown {
  /** The event types the figure counts. */
  types: readonly EventType[];
  /** First day, `YYYY-MM-DD` (UTC); null: from the beginning. */
  from: string | null;
  /** Last day, inclusive, `YYYY-MM-DD` (UTC); null: up to now. */
  to: string | null;
  /** Completed only, as the summary and the chart count (default true). */
  completed?: boolean;
}

/**
 * The transaction view's address (features/transactions/client/transaction-url-state.ts) for a figure: its types, its UTC days and
 * completed transactions, in UTC (`tz=utc`), because the summary and the chart count whole UTC days: the list's
 * total and its totals row then equal the figure.
 */
export function drillDownHref(playerId: string, d: DrillDown): string {
  const q = new URLSearchParams({ section: "transactions" });
  for (const t of d.types) q.append("event_type", t);
  if (d.completed ?? true) q.set("status", "completed");
  if (d.from) q.set("from", d.from);
  if (d.to) q.set("to", d.to);
  q.set("tz", "utc");
  return `/players/${encodeURIComponent(playerId)}?${q}`;
}

/** A period as the API writes it (`from` inclusive, `to` the exclusive midnight after) as the view's days. */
export function periodDays(
  from: string | null,
  to: string | null,
): { from: string | null; to: string | null } {
  return {
    from: from ? from.slice(0, 10) : null,
    to: to ? new Date(Date.parse(to) - DAY_MS).toISOString().slice(0, 10) : null,
  };
}

/** A calendar month `YYYY-MM` as its first and last day. */
export function monthDays(month: string): { from: string; to: string } {
  const [y, m] = month.split("-").map(Number);
  const last = new Date(Date.UTC(y ?? 1970, m ?? 1, 0));
  return { from: `${month}-01`, to: last.toISOString().slice(0, 10) };
}
