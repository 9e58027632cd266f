/*
 * The triggers that feed the change log and stamp updated_at (prisma/migrations/20261126070000_change_feed), by
 * table. A bulk load that has emptied a table (TRUNCATE logs one `reset` entry, which stands for everything
 * written with it) may switch the others off for its transaction: every row it writes gets updated_at = now() by
 * the column default, and the reset tells a syncer to read everything again (docs/change-feed.md).
 */
export const CHANGE_FEED_TRIGGERS = {
  players: [
    "players_updated_at",
    "players_changes_insert",
    "players_changes_update",
    "players_changes_delete",
  ],
  transactions: [
    "transactions_updated_at",
    "transactions_changes_insert",
    "transactions_changes_update",
    "transactions_changes_delete",
  ],
} as const;

/** `ALTER TABLE … DISABLE|ENABLE TRIGGER …` for every feed trigger but the TRUNCATE ones. */
export function changeFeedTriggersSql(action: "DISABLE" | "ENABLE"): string[] {
  return Object.entries(CHANGE_FEED_TRIGGERS).flatMap(([table, triggers]) =>
    triggers.map((t) => `ALTER TABLE "${table}" ${action} TRIGGER "${t}"`),
  );
}
