/**
 * The aggregation the stats trigger applies (prisma/migrations/20261121140000_transaction_daily_stats), over any
 * row source with the transactions' columns: a whole table for a rebuild, the rows a statement inserted for an
 * import that bypasses the trigger. `upsert` adds to existing counts (needs the table's primary key).
 */
export function dailyStatsInsertSql(source: string, { upsert }: { upsert: boolean }): string {
  return `
  INSERT INTO transaction_daily_stats AS s (player_id, day, event_type, event_name, created_by, n, completed_n, completed_amount)
  SELECT player_id, (date AT TIME ZONE 'UTC')::date, event_type, event_name, created_by,
         count(*)::int,
         (count(*) FILTER (WHERE completed_at IS NOT NULL))::int,
         COALESCE(sum(abs(amount)) FILTER (WHERE completed_at IS NOT NULL), 0)
  FROM ${source} GROUP BY 1, 2, 3, 4, 5${
    upsert
      ? `
  ON CONFLICT (player_id, day, event_type, event_name, created_by) DO UPDATE
  SET n = s.n + EXCLUDED.n, completed_n = s.completed_n + EXCLUDED.completed_n,
      completed_amount = s.completed_amount + EXCLUDED.completed_amount`
      : ""
  }`;
}
