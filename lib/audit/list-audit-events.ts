import { getPrisma } from "@/lib/db/client";
import { Prisma, type PrismaClient } from "@/lib/db/generated/client";
import type { AuditEvent, AuditFilters, AuditOperation } from "@/lib/schemas/audit";

export interface AuditEventPage {
  events: AuditEvent[];
  total: number;
  nextCursor: string | null;
}

interface Row {
  id: bigint;
  occurred_at: Date;
  subject: string;
  auth_mode: string;
  scopes: string[] | null;
  session_id: string;
  operation: AuditOperation;
  player_id: string | null;
  result_player_ids: string[] | null;
  filters: AuditFilters;
  request_id: string;
  client_address: string | null;
}

function toAuditEvent(r: Row): AuditEvent {
  return {
    id: r.id.toString(),
    occurred_at: r.occurred_at.toISOString(),
    subject: r.subject,
    auth_mode: r.auth_mode === "jwt" ? "jwt" : "demo",
    scopes: r.scopes ?? [],
    session_id: r.session_id,
    operation: r.operation,
    player_id: r.player_id,
    result_player_ids: r.result_player_ids ?? [],
    filters: r.filters,
    request_id: r.request_id,
    client_address: r.client_address,
  };
}

/**
 * A player's audit trail, newest first: reads that named the player in the path, and searches whose
 * results contained the player. Keyset paging on the sequence number (`cursor` = last id seen), so
 * events recorded meanwhile never shift pages. null when no such player exists.
 */
export async function listAuditEvents(
  playerId: string,
  query: { operation?: AuditOperation[]; cursor?: string; limit: number },
  db: PrismaClient = getPrisma(),
): Promise<AuditEventPage | null> {
  // Two index-backed conditions (btree on player_id, GIN on result_player_ids) ORed together.
  const matches = Prisma.sql`(player_id = ${playerId} OR result_player_ids @> ARRAY[${playerId}]::text[])`;
  const ops = query.operation?.length
    ? Prisma.sql`AND operation::text IN (${Prisma.join(query.operation)})`
    : Prisma.empty;
  const before = query.cursor ? Prisma.sql`AND id < ${BigInt(query.cursor)}` : Prisma.empty;
  const [player, rows, counted] = await Promise.all([
    db.player.findUnique({ where: { id: playerId }, select: { id: true } }),
    db.$queryRaw<Row[]>`
      SELECT id, occurred_at, subject, auth_mode, scopes, session_id, operation::text AS operation, player_id,
             result_player_ids, filters, request_id, client_address
      FROM audit_events
      WHERE ${matches} ${ops} ${before}
      ORDER BY id DESC
      LIMIT ${query.limit + 1}`,
    db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_events WHERE ${matches} ${ops}`,
  ]);
  if (!player) return null;
  const page = rows.slice(0, query.limit);
  const last = page.at(-1);
  return {
    events: page.map(toAuditEvent),
    total: Number(counted[0]?.n ?? 0),
    nextCursor: rows.length > query.limit && last ? last.id.toString() : null,
  };
}
