import type { AuditFilters, AuditRecord } from "@/platform/audit/audit-queue";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { subjectNameFromClaims } from "@/platform/audit/subject-name";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import { isDatabaseUnavailable } from "@/platform/db/unavailable";
import { type ApiError, serviceUnavailable } from "@/platform/problems/problem";
import { callerKey } from "./admission.ts";
import type { ApiHandler, AuditedRead, RequestScope } from "./api-context.ts";

/** Query parameters as sent: one value → string, repeated → array (what the audit trail records). */
export function requestFilters(params: URLSearchParams): AuditFilters {
  // No prototype: a parameter named `constructor` or `__proto__` is recorded as sent, never read from Object.
  const filters: AuditFilters = Object.create(null);
  for (const [key, value] of params) {
    const seen = Object.hasOwn(filters, key) ? filters[key] : undefined;
    filters[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return filters;
}

/** Refuses a read that could not be accounted for: 503 while the audit backlog is full. */
export function assertAuditable(): void {
  if (getAuditQueue().isFull()) throw auditUnavailable();
}

/** Where a read came from: a request's scope, or a server render's (server-caller.ts). */
export type ReadOrigin = Pick<RequestScope, "url" | "requestId" | "clientRequestId" | "address">;

/** The audit row of a read: who (the principal), what (the read it declared), and the request as sent. */
export function auditRecord(scope: ReadOrigin, principal: ApiPrincipal, read: AuditedRead): AuditRecord {
  return {
    occurredAt: new Date(),
    subject: principal.subject,
    subjectName: subjectNameFromClaims(principal.claims),
    authMode: principal.mode,
    scopes: [...principal.scopes],
    sessionId: principal.sessionId,
    operation: read.operation,
    playerId: read.playerId,
    resultPlayerIds: read.resultPlayerIds ?? [],
    filters: requestFilters(scope.url.searchParams),
    requestId: scope.requestId,
    clientRequestId: scope.clientRequestId,
    clientAddress: scope.address,
  };
}

/** Runs the route's handler; the read it declares is recorded in the audit trail if the answer is a success. */
export async function serveRead<P>(
  scope: RequestScope,
  principal: ApiPrincipal,
  params: P,
  handler: ApiHandler<P>,
): Promise<Response> {
  let declared: readonly AuditedRead[] = [];
  const response = await handler({
    request: scope.request,
    url: scope.url,
    params,
    principal,
    caller: callerKey(principal, scope.address),
    requestId: scope.requestId,
    audit: (read) => {
      assertAuditable();
      declared = Array.isArray(read) ? read : [read as AuditedRead];
    },
    commitAudit: async (read) => {
      assertAuditable();
      await commitAuditRecord(auditRecord(scope, principal, read));
    },
  });
  if (declared.length > 0 && (response.ok || response.status === 304)) {
    try {
      await commitAuditRecords(declared.map((read) => auditRecord(scope, principal, read)));
    } catch (error) {
      await response.body?.cancel().catch(() => {});
      throw error;
    }
  }
  return response;
}

/**
 * The answer leaves the process only once its audit row is committed (group commit, audit-queue.ts): a crash
 * at any moment loses no record of a read that was answered. A read that cannot be recorded answers 503 (or
 * the database outage's own 503).
 */
export async function commitAuditRecord(record: AuditRecord): Promise<void> {
  try {
    await getAuditQueue().add(record);
  } catch (error) {
    if (isDatabaseUnavailable(error)) throw error;
    throw auditUnavailable();
  }
}

/** Several rows of one answer (a batch read): all committed (they share the queue's next INSERT) or a 503. */
export async function commitAuditRecords(records: readonly AuditRecord[]): Promise<void> {
  await Promise.all(records.map((record) => commitAuditRecord(record)));
}

function auditUnavailable(): ApiError {
  return serviceUnavailable("Reads cannot be recorded in the audit trail right now; try again shortly.");
}
