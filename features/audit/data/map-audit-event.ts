import "server-only";
import type { AuditEvent, AuditFilters, AuditOperation } from "@/features/audit/schema/audit";
import { Prisma } from "@/platform/db/generated/client";

/** One audit_events row as AUDIT_EVENT_COLUMNS selects it. */
export interface AuditEventRow {
  id: bigint;
  occurred_at: Date;
  subject: string;
  subject_name: string | null;
  auth_mode: string;
  scopes: string[] | null;
  session_id: string;
  operation: AuditOperation;
  player_id: string | null;
  result_player_ids: string[] | null;
  filters: AuditFilters;
  request_id: string;
  client_request_id: string | null;
  client_address: string | null;
  text_replaced: boolean;
}

/** The columns every audit listing selects, in the shape of AuditEventRow. */
export const AUDIT_EVENT_COLUMNS = Prisma.sql`id, occurred_at, subject, subject_name, auth_mode, scopes, session_id,
  operation::text AS operation, player_id, result_player_ids, filters, request_id, client_request_id,
  client_address, text_replaced`;

export function toAuditEvent(r: AuditEventRow): AuditEvent {
  return {
    id: r.id.toString(),
    occurred_at: r.occurred_at.toISOString(),
    subject: r.subject,
    subject_name: r.subject_name,
    auth_mode: r.auth_mode === "jwt" ? "jwt" : "demo",
    scopes: r.scopes ?? [],
    session_id: r.session_id,
    operation: r.operation,
    player_id: r.player_id,
    result_player_ids: r.result_player_ids ?? [],
    filters: r.filters,
    request_id: r.request_id,
    client_request_id: r.client_request_id,
    client_address: r.client_address,
    text_replaced: r.text_replaced,
  };
}
