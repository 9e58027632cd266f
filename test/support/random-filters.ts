import type pg from "pg";
import { CREATORS, EVENT_TYPES } from "@/platform/schemas/enums";
import type { Rng } from "@/prisma/demo-data/random";

/** What random filters for one player draw from: its transactions' dates, event names and first 50 ids. */
export interface FilterSpan {
  player_id: string;
  lo: Date;
  hi: Date;
  names: string[];
  ids: string[];
}

/** The span of each of `players` that has transactions. */
export async function filterSpans(sql: pg.Pool, players: string[]): Promise<FilterSpan[]> {
  const { rows } = await sql.query<FilterSpan>(
    `SELECT player_id, min(date) AS lo, max(date) AS hi, array_agg(DISTINCT event_name) AS names,
            (array_agg(id ORDER BY id))[1:50] AS ids
     FROM transactions WHERE player_id = ANY($1) GROUP BY player_id`,
    [players],
  );
  return rows;
}

type FilterName =
  | "event_type"
  | "event_name"
  | "created_by"
  | "status"
  | "transaction_id"
  | "from_date"
  | "to_date";

/**
 * A random player of `spans` and random transaction filters for it as query parameters, each set with its chance
 * in `odds` (never when left out): some event types, one or two event names (comma-separated), a creator, a
 * status, an id of the player's (or one that does not exist), and bounds inside its dates, as days or instants.
 */
export function randomFilters(
  rng: Rng,
  spans: readonly FilterSpan[],
  odds: Partial<Record<FilterName, number>>,
): { playerId: string; params: URLSearchParams } {
  const span = rng.pick(spans);
  const params = new URLSearchParams();
  const draw = (name: FilterName) => rng.chance(odds[name] ?? 0);
  if (draw("event_type")) for (const t of EVENT_TYPES) if (rng.chance(0.35)) params.append("event_type", t);
  if (draw("event_name")) {
    const names = rng.chance(0.5) ? [rng.pick(span.names)] : [rng.pick(span.names), rng.pick(span.names)];
    params.append("event_name", names.join(","));
  }
  if (draw("created_by")) params.set("created_by", rng.pick(CREATORS));
  if (draw("status")) params.set("status", rng.pick(["pending", "completed"]));
  if (draw("transaction_id")) params.set("transaction_id", rng.chance(0.8) ? rng.pick(span.ids) : "T-NOPE");
  const lo = span.lo.getTime();
  const hi = span.hi.getTime();
  const a = lo + Math.floor(rng.next() * (hi - lo));
  const b = a + Math.floor(rng.next() * (hi - a));
  const bound = (at: number) => new Date(at).toISOString().slice(0, rng.chance(0.5) ? 10 : undefined);
  if (draw("from_date")) params.set("from_date", bound(a));
  if (draw("to_date")) params.set("to_date", bound(b));
  return { playerId: span.player_id, params };
}
