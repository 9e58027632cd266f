import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { AuditRecord } from "./audit-queue.ts";

// PostgreSQL text cannot hold NUL; a token subject or parameter carrying one must not poison a batch.
const clean = (s: string) => s.replaceAll("\u0000", "\uFFFD");
const cleanAll = (value: unknown): unknown =>
  typeof value === "string"
    ? clean(value)
    : Array.isArray(value)
      ? value.map(cleanAll)
      : value && typeof value === "object"
        ? Object.fromEntries(Object.entries(value).map(([k, v]) => [clean(k), cleanAll(v)]))
        : value;

/**
 * Appends audit records with one multi-row INSERT. The rows travel as one JSON parameter that
 * PostgreSQL unpacks (json_to_recordset): a batch of hundreds costs about as much as one row, where
 * Prisma's createMany spends most of its time building per-row parameters.
 */
export async function recordAuditEvents(
  records: AuditRecord[],
  db: PrismaClient = getPrisma(),
): Promise<void> {
  if (records.length === 0) return;
  const rows = records.map((r) => ({
    occurred_at: r.occurredAt.toISOString(),
    subject: r.subject,
    subject_name: r.subjectName ?? null,
    auth_mode: r.authMode,
    scopes: r.scopes,
    session_id: r.sessionId,
    operation: r.operation,
    player_id: r.playerId,
    result_player_ids: r.resultPlayerIds,
    filters: r.filters,
    request_id: r.requestId,
    client_address: r.clientAddress,
  }));
  let json = JSON.stringify(rows);
  // JSON.stringify writes a NUL as the text \u0000: only a batch that may hold one is copied and cleaned.
  if (json.includes("\\u0000")) json = JSON.stringify(rows.map(cleanAll));
  await db.$executeRaw`
    INSERT INTO audit_events (occurred_at, subject, subject_name, auth_mode, scopes, session_id, operation, player_id,
                              result_player_ids, filters, request_id, client_address)
    SELECT occurred_at, subject, subject_name, auth_mode, scopes, session_id, operation::audit_operation, player_id,
           result_player_ids, filters, request_id, client_address
    FROM json_to_recordset(${json}::json) AS x(
      occurred_at timestamptz, subject text, subject_name text, auth_mode text, scopes text[], session_id text, operation text,
      player_id text, result_player_ids text[], filters jsonb, request_id text, client_address text)`;
}
