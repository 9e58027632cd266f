import "server-only";
import {
  type AuditEvent,
  type AuditLogFilters,
  type AuditReader,
  MAX_AUDIT_READERS,
} from "@/features/audit/schema/audit";
import { getPrisma } from "@/platform/db/client";
import { Prisma, type PrismaClient } from "@/platform/db/generated/client";
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
  /** With a player filter: who read that player's data (see listPlayerReaders); else null. */
  readers: AuditReader[] | null;
}

/**
 * A user named either way: their id exactly, or their display name or its beginning in any case (a prefix of
 * lower(subject_name): the index audit_events_subject_name_lower_idx, text_pattern_ops).
 */
function userCondition(user: string): Prisma.Sql {
  // lower() on both sides in SQL: the database's case rules, not JavaScript's, on either side.
  const prefix = `${user.replace(/[\\%_]/g, "\\$&")}%`;
  return Prisma.sql`(subject = ${user} OR lower(subject_name) LIKE lower(${prefix}))`;
}

/** The filters but the player as SQL conditions; user and operation have indexes in id order, the period one of its own. */
function conditions(filters: AuditLogFilters, cursor: string | undefined): Prisma.Sql[] {
  const where: Prisma.Sql[] = [];
  if (filters.subject !== undefined) where.push(Prisma.sql`subject = ${filters.subject}`);
  if (filters.user !== undefined) where.push(userCondition(filters.user));
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
    readers:
      filters.player_id === undefined
        ? null
        : await listPlayerReaders({ playerId: filters.player_id, filters }, db),
  };
}

export interface ListPlayerReadersOptions {
  playerId: string;
  filters: AuditLogFilters;
}

/**
 * Who read one player's data under the page's user, operation and period filters: per user, how many reads and
 * the last one, the most recent reader first. Reads of the audit trail itself are left out: an admin looking
 * the player up in the trail did not read the player's data. Both ways a player appears count (named in the
 * path, returned by a search): a bitmap OR of the two player indexes.
 */
export async function listPlayerReaders(
  options: ListPlayerReadersOptions,
  db: PrismaClient = getPrisma(),
): Promise<AuditReader[]> {
  const { playerId, filters } = options;
  const where = whereClause([
    ...conditions(filters, undefined),
    Prisma.sql`operation <> 'audit_trail'`,
    Prisma.sql`(player_id = ${playerId} OR result_player_ids @> ARRAY[${playerId}]::text[])`,
  ]);
  const rows = await db.$queryRaw<
    { subject: string; subject_name: string | null; reads: number; last_read_at: Date }[]
  >`
    SELECT subject, (array_agg(subject_name ORDER BY id DESC))[1] AS subject_name,
      count(*)::int AS reads, max(occurred_at) AS last_read_at
    FROM audit_events
    ${where}
    GROUP BY subject
    ORDER BY max(id) DESC
    LIMIT ${MAX_AUDIT_READERS}`;
  return rows.map((r) => ({
    subject: r.subject,
    subject_name: r.subject_name,
    reads: r.reads,
    last_read_at: r.last_read_at.toISOString(),
  }));
}
