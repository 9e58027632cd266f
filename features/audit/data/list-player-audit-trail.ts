import "server-only";
import type { AuditEvent, AuditOperation } from "@/features/audit/schema/audit";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
import { playerNotFound } from "@/platform/http/errors";
import { AUDIT_EVENT_COLUMNS, type AuditEventRow, toAuditEvent } from "./map-audit-event.ts";
import { playerPageIds, whereClause } from "./player-page-ids.ts";

export interface ListPlayerAuditTrailOptions {
  playerId: string;
  /** Only these operations; all without it. */
  operation?: AuditOperation[] | undefined;
  /** The last id seen: the page continues below it. */
  cursor?: string | undefined;
  limit: number;
}

export interface PlayerAuditTrailPage {
  events: AuditEvent[];
  total: number;
  nextCursor: string | null;
}

/**
 * A player's audit trail, newest first: reads that named the player in the path, and searches whose
 * results contained the player. Keyset paging on the sequence number (`cursor` = last id seen), so
 * events recorded meanwhile never shift pages. Throws a not-found AppError when no such player exists.
 */
export async function listPlayerAuditTrail(
  options: ListPlayerAuditTrailOptions,
  db: PrismaClient = getPrisma(),
): Promise<PlayerAuditTrailPage> {
  const { playerId, ...query } = options;
  // The count: two index-backed conditions (btree on player_id, GIN on result_player_ids) ORed (a BitmapOr).
  const matches = Prisma.sql`(player_id = ${playerId} OR result_player_ids @> ARRAY[${playerId}]::text[])`;
  const ops = query.operation?.length
    ? Prisma.sql`AND operation::text IN (${Prisma.join(query.operation)})`
    : Prisma.empty;
  const pageWhere = [
    ...(query.operation?.length ? [Prisma.sql`operation::text IN (${Prisma.join(query.operation)})`] : []),
    ...(query.cursor ? [Prisma.sql`id < ${BigInt(query.cursor)}`] : []),
  ];
  const [player, rows, counted] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    db.$queryRaw<AuditEventRow[]>`
      SELECT ${AUDIT_EVENT_COLUMNS}
      FROM audit_events
      ${whereClause([playerPageIds(playerId, pageWhere, query.limit + 1)])}
      ORDER BY id DESC
      LIMIT ${query.limit + 1}`,
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_events WHERE ${matches} ${ops}`,
  ]);
  if (!player) throw playerNotFound(playerId);
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    events: page.map(toAuditEvent),
    total: Number(counted[0]?.n ?? 0),
    nextCursor: rows.length > query.limit && last ? last.id.toString() : null,
  };
}
