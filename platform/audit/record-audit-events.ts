import "server-only";
import { getPrisma } from "@/platform/db/client";
import type { PrismaClient } from "@/platform/db/generated/client";
import type { AuditRecord } from "./audit-queue.ts";
import { storableRow } from "./storable-text.ts";

export interface RecordAuditOptions {
  db?: PrismaClient;
  /**
   * `false` commits without waiting for the WAL flush (`synchronous_commit = off` for this transaction only):
   * the row survives any crash of the app, and only a crash of the database server within ~0.6 s of the commit
   * can lose it (docs/trust.md).
   */
  synchronousCommit?: boolean;
}

function toRow(r: AuditRecord) {
  return {
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
    client_request_id: r.clientRequestId ?? null,
    client_address: r.clientAddress,
    text_replaced: false,
  };
}

/** The batch as one JSON text; only a batch whose text holds an escape is checked and cleaned row by row. */
function batchJson(records: AuditRecord[]): string {
  const rows = records.map(toRow);
  const json = JSON.stringify(rows);
  // JSON.stringify writes a NUL and a lone surrogate as \u escapes, which PostgreSQL refuses in text.
  return json.includes("\\u") ? JSON.stringify(rows.map(storableRow)) : json;
}

/**
 * Appends audit records with one multi-row INSERT in one implicit transaction. The rows travel as one JSON
 * parameter that PostgreSQL unpacks (json_to_recordset): a batch of hundreds costs about as much as one row,
 * where Prisma's createMany spends most of its time building per-row parameters.
 */
export async function recordAuditEvents(
  records: AuditRecord[],
  { db = getPrisma(), synchronousCommit = true }: RecordAuditOptions = {},
): Promise<void> {
  if (records.length === 0) return;
  const json = batchJson(records);
  // set_config(…, true) lasts until the end of this statement's own transaction, i.e. its commit.
  const commitMode = synchronousCommit ? "on" : "off";
  await db.$executeRaw`
    INSERT INTO audit_events (occurred_at, subject, subject_name, auth_mode, scopes, session_id, operation, player_id,
                              result_player_ids, filters, request_id, client_request_id, client_address, text_replaced)
    SELECT occurred_at, subject, subject_name, auth_mode, scopes, session_id, operation::audit_operation, player_id,
           result_player_ids, filters, request_id, client_request_id, client_address, text_replaced
    FROM (SELECT set_config('synchronous_commit', ${commitMode}, true)) AS commit_mode,
         json_to_recordset(${json}::json) AS x(
      occurred_at timestamptz, subject text, subject_name text, auth_mode text, scopes text[], session_id text,
      operation text, player_id text, result_player_ids text[], filters jsonb, request_id text,
      client_request_id text, client_address text, text_replaced boolean)`;
}
