import "server-only";
import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import type { AuditEvent, AuditLogFilters } from "@/lib/schemas/audit";
import { AUDIT_EVENT_COLUMNS, type AuditEventRow, toAuditEvent } from "./map-audit-event.ts";
import { playerPageIds, whereClause } from "./player-page-ids.ts";

export interface ListAuditLogAllPlayersOptions {
  filters: AuditLogFilters;
  /** The last id seen: the page continues below it. */
  cursor?: string | undefined;
  limit: number;
}

export interface AuditLogAllPlayersPage {
  events: AuditEvent[];
  nextCursor: string | null;
}

/** The filters but the player as SQL conditions; user and operation have indexes in id order, the period one of its own. */
function conditions(filters: AuditLogFilters, cursor: string | undefined): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (filters.subject !== undefined) where.push(Prisma.sql`subject = ${filters.subject}`);
  if (filters.operation?.length) {
    where.push(Prisma.sql`operation::text IN (${Prisma.join(filters.operation)})`);
  }
  if (filters.from_date) where.push(Prisma.sql`occurred_at >= ${filters.from_date.at}`);
  if (filters.to_date) {
    const { at, exclusive } = filters.to_date;
    where.push(exclusive ? Prisma.sql`occurred_at < ${at}` : Prisma.sql`occurred_at <= ${at}`);
  }
  if (cursor) where.push(Prisma.sql`id < ${BigInt(cursor)}`);
  return where;
}

/**
 * Every recorded read across all players (the admins' audit page), newest first, narrowed by user, player,
 * operation and period. Keyset paging on the sequence number like a player's trail (`cursor` = last id seen):
 * events recorded while paging never shift or repeat pages. No total: on a trail of millions of rows the
 * count would cost more than the page.
 */
export async function listAuditLogAllPlayers(
  options: ListAuditLogAllPlayersOptions,
  db: PrismaClient = getPrisma(),
): Promise<AuditLogAllPlayersPage> {
  const { filters, ...page } = options;
  const where = conditions(filters, page.cursor);
  const clause = whereClause(
    filters.player_id === undefined ? where : [playerPageIds(filters.player_id, where, page.limit + 1)],
  );
  const rows = await db.$queryRaw<AuditEventRow[]>`
    SELECT ${AUDIT_EVENT_COLUMNS}
    FROM audit_events
    ${clause}
    ORDER BY id DESC
    LIMIT ${page.limit + 1}`;
  const shown = rows.slice(0, page.limit);
  const last = shown.at(-1);
  return {
    events: shown.map(toAuditEvent),
    nextCursor: rows.length > page.limit && last ? last.id.toString() : null,
  };
}
