/** The trigger that keeps transaction_daily_stats current; the bulk paths pause it and do its work set-based. */
export const DAILY_STATS_INSERT_TRIGGER = "transactions_daily_stats_insert";

/** The stats key: one row of transaction_daily_stats per player, UTC day, type, name and creator. */
export const DAILY_STATS_KEY = ["player_id", "day", "event_type", "event_name", "created_by"] as const;

/** The stats' figures, in the order dailyStatsSelectSql writes them. */
export const DAILY_STATS_COUNTS = [
  "n",
  "completed_n",
  "failed_n",
  "cancelled_n",
  "completed_amount",
] as const;

/**
 * The aggregation the stats trigger applies (prisma/migrations/20261126040000_live_wallet_events), over any
 * row source with the transactions' columns, as rows with the columns of transaction_daily_stats.
 */
export function dailyStatsSelectSql(source: string): string {
  return `
  SELECT player_id, (date AT TIME ZONE 'UTC')::date AS day, event_type, event_name, created_by,
         count(*)::int AS n,
         (count(*) FILTER (WHERE status = 'completed'))::int AS completed_n,
         (count(*) FILTER (WHERE status = 'failed'))::int AS failed_n,
         (count(*) FILTER (WHERE status = 'cancelled'))::int AS cancelled_n,
         COALESCE(sum(abs(amount)) FILTER (WHERE status = 'completed'), 0) AS completed_amount
  FROM ${source} GROUP BY 1, 2, 3, 4, 5`;
}

/**
 * That aggregation inserted: over a whole table for a rebuild, or over the rows a statement inserted for an
 * import that bypasses the trigger. `upsert` adds to existing counts (needs the table's primary key).
 */
export function dailyStatsInsertSql(source: string, { upsert }: { upsert: boolean }): string {
  return `
  INSERT INTO transaction_daily_stats AS s (${DAILY_STATS_KEY.join(", ")}, ${DAILY_STATS_COUNTS.join(", ")})
  ${dailyStatsSelectSql(source)}${
    upsert
      ? `
  ON CONFLICT (${DAILY_STATS_KEY.join(", ")}) DO UPDATE
  SET ${DAILY_STATS_COUNTS.map((c) => `${c} = s.${c} + EXCLUDED.${c}`).join(", ")}`
      : ""
  }`;
}
