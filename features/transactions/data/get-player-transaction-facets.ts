import "server-only";
import {
  EVENT_TYPES,
  type EventType,
  type TransactionFilters,
} from "@/features/transactions/schema/transaction";
import type { TransactionFacets } from "@/features/transactions/schema/transaction-facets";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { countByFilterValues, type ValueCount } from "./count-by-filter-values.ts";
import { filterRange } from "./transaction-where.ts";

type Facet = "eventType" | "eventName" | "createdBy";

/** Whether a value combination passes the value filters, except those of the facets named in `ignore`. */
function passes(row: ValueCount, f: TransactionFilters, ignore: Facet[]): boolean {
  if (!ignore.includes("eventType") && f.event_type && !f.event_type.includes(row.eventType)) return false;
  if (!ignore.includes("eventName") && f.event_name && !f.event_name.includes(row.eventName)) return false;
  if (!ignore.includes("createdBy") && f.created_by && f.created_by !== row.createdBy) return false;
  return true;
}

/** Counts per value of one facet, under every other filter (a facet's own selection does not narrow it). */
function facetCounts<K>(rows: ValueCount[], f: TransactionFilters, facet: Facet, key: (r: ValueCount) => K) {
  const counts = new Map<K, number>();
  for (const row of rows) {
    if (row.n > 0 && passes(row, f, [facet])) counts.set(key(row), (counts.get(key(row)) ?? 0) + row.n);
  }
  return counts;
}

export interface GetPlayerTransactionFacetsOptions {
  playerId: string;
  /** Default: none. */
  filters?: TransactionFilters | undefined;
}

/**
 * The filter values a player's transactions offer (event types, event names, creators) with faceted counts:
 * each facet's counts apply every active filter but its own (so picking `bet` still shows how many `win`s
 * there are), `total` applies them all. Every event type is listed; event names and creators are those with
 * matches under the date range, status and id filters, plus any selected value (with its count, maybe 0).
 * `first_date` / `last_date` span all of the player's transactions. Throws a not-found AppError when the player does not exist.
 */
export async function getPlayerTransactionFacets(
  options: GetPlayerTransactionFacetsOptions,
  db: PrismaClient = getPrisma(),
): Promise<TransactionFacets> {
  const { playerId, filters = {} } = options;
  const range = filterRange(filters);
  const [player, rows, first, last] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    // From the per-day stats (kept by triggers): a few thousand rows even for a player with millions of
    // transactions; the partial days of a date range are counted row by row.
    range ? countByFilterValues({ playerId, filters, range }, db) : [],
    // Two index probes: min()/max() through Prisma's aggregate wrap the rows in a subquery that PostgreSQL
    // cannot answer from the index end, i.e. a scan of every row of the player.
    db.transaction.findFirst({ where: { playerId }, orderBy: { date: "asc" }, select: { date: true } }),
    db.transaction.findFirst({ where: { playerId }, orderBy: { date: "desc" }, select: { date: true } }),
  ]);
  if (!player) throw playerNotFound(playerId);

  const types = facetCounts(rows, filters, "eventType", (r) => r.eventType);
  const names = facetCounts(rows, filters, "eventName", (r) => r.eventName);
  const creators = facetCounts(rows, filters, "createdBy", (r) => r.createdBy);
  // The types a name occurs with, under the filters other than the type and name selections.
  const typesOfName = new Map<string, Set<EventType>>();
  for (const row of rows) {
    if (row.n > 0 && passes(row, filters, ["eventType", "eventName"])) {
      typesOfName.set(row.eventName, (typesOfName.get(row.eventName) ?? new Set()).add(row.eventType));
    }
  }
  const matched = rows.filter((r) => r.n > 0);
  const nameValues = [...new Set([...matched.map((r) => r.eventName), ...(filters.event_name ?? [])])];
  const creatorValues = [
    ...new Set([...matched.map((r) => r.createdBy), ...(filters.created_by ? [filters.created_by] : [])]),
  ];
  return {
    player_id: playerId,
    total: rows.filter((r) => passes(r, filters, [])).reduce((a, r) => a + r.n, 0),
    event_types: EVENT_TYPES.map((value) => ({ value, count: types.get(value) ?? 0 })),
    event_names: nameValues.sort().map((value) => ({
      value,
      count: names.get(value) ?? 0,
      event_types: EVENT_TYPES.filter((t) => typesOfName.get(value)?.has(t)),
    })),
    created_by: creatorValues.sort().map((value) => ({ value, count: creators.get(value) ?? 0 })),
    first_date: first?.date.toISOString() ?? null,
    last_date: last?.date.toISOString() ?? null,
  };
}
