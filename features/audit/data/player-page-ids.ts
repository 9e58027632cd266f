import "server-only";
import { Prisma } from "@/platform/db/generated/client";

/** `WHERE a AND b …`, or nothing for no conditions. */
export const whereClause = (where: Prisma.Sql[]) =>
  where.length ? Prisma.sql`WHERE ${Prisma.join(where, " AND ")}` : Prisma.empty;

/**
 * The ids of a page of one player's reads: the newest from each of the player's two indexes (named in the path:
 * btree in id order; returned by a search: GIN), merged. As one `player_id = … OR result_player_ids @> …`
 * condition the planner walks the primary key backwards instead, filtering: measured 73 ms on 300,000 events
 * for a player with 60, against under a millisecond this way. The GIN branch cannot yield id order, so it sorts
 * its matches (`id + 0` keeps the planner from walking the primary key there too: 150 ms).
 */
export function playerPageIds(playerId: string, where: Prisma.Sql[], limit: number): Prisma.Sql {
  const named = whereClause([...where, Prisma.sql`player_id = ${playerId}`]);
  const found = whereClause([...where, Prisma.sql`result_player_ids @> ARRAY[${playerId}]::text[]`]);
  return Prisma.sql`id IN (
    (SELECT id FROM audit_events ${named} ORDER BY id DESC LIMIT ${limit})
    UNION
    (SELECT id FROM audit_events ${found} ORDER BY id + 0 DESC LIMIT ${limit}))`;
}
