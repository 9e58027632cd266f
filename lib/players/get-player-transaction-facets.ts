import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import { EVENT_TYPES, type EventType } from "@/lib/schemas/transaction";
import type { TransactionFacets } from "@/lib/schemas/transaction-facets";

/**
 * The filter values a player's transactions offer (event types, event names, creators) with counts,
 * and the span of their dates. null when the player does not exist.
 */
export async function getPlayerTransactionFacets(
  playerId: string,
  db: PrismaClient = getPrisma(),
): Promise<TransactionFacets | null> {
  const [player, names, creators, span] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    // Counts come from the per-day stats (kept by triggers): a few thousand rows even for a player with
    // millions of transactions. The date span is two index probes.
    db.transactionDailyStat.groupBy({
      by: ["eventName", "eventType"],
      where: { playerId },
      _sum: { n: true },
      orderBy: [{ eventName: "asc" }, { eventType: "asc" }],
    }),
    db.transactionDailyStat.groupBy({
      by: ["createdBy"],
      where: { playerId },
      _sum: { n: true },
      orderBy: { createdBy: "asc" },
    }),
    db.transaction.aggregate({ where: { playerId }, _min: { date: true }, _max: { date: true } }),
  ]);
  if (!player) return null;

  const typeCounts = new Map<EventType, number>(EVENT_TYPES.map((t) => [t, 0]));
  const nameFacets = new Map<string, { value: string; count: number; event_types: EventType[] }>();
  for (const row of names) {
    const n = row._sum.n ?? 0;
    typeCounts.set(row.eventType, (typeCounts.get(row.eventType) ?? 0) + n);
    const facet = nameFacets.get(row.eventName) ?? { value: row.eventName, count: 0, event_types: [] };
    facet.count += n;
    facet.event_types.push(row.eventType);
    nameFacets.set(row.eventName, facet);
  }
  for (const facet of nameFacets.values()) {
    facet.event_types.sort((a, b) => EVENT_TYPES.indexOf(a) - EVENT_TYPES.indexOf(b));
  }
  return {
    player_id: playerId,
    total: [...typeCounts.values()].reduce((a, b) => a + b, 0),
    event_types: EVENT_TYPES.map((value) => ({ value, count: typeCounts.get(value) ?? 0 })),
    event_names: [...nameFacets.values()],
    created_by: creators.map((c) => ({ value: c.createdBy, count: c._sum.n ?? 0 })),
    first_date: span._min.date?.toISOString() ?? null,
    last_date: span._max.date?.toISOString() ?? null,
  };
}
