import { getPrisma } from "@/lib/db/client";
import type { PrismaClient } from "@/lib/db/generated/client";
import type { AuditRecord } from "./audit-queue.ts";

/** Appends audit records with one multi-row INSERT. */
export async function recordAuditEvents(
  records: AuditRecord[],
  db: PrismaClient = getPrisma(),
): Promise<void> {
  if (records.length === 0) return;
  await db.auditEvent.createMany({
    data: records.map((r) => ({
      occurredAt: r.occurredAt,
      subject: r.subject,
      authMode: r.authMode,
      scopes: r.scopes,
      sessionId: r.sessionId,
      operation: r.operation,
      playerId: r.playerId,
      resultPlayerIds: r.resultPlayerIds,
      filters: r.filters,
      requestId: r.requestId,
      clientAddress: r.clientAddress,
    })),
  });
}
