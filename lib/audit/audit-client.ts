import type { AuditEvent, AuditListResponse, AuditOperation } from "@/lib/schemas/audit";

/*
 * Browser-side access to the audit trail operation, for components/audit. Takes any fetch-like function,
 * so the caller decides how requests are authorized (the signed-in user's bearer token and session id).
 */

export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export interface AuditPageRequest {
  cursor?: string | null;
  operations?: AuditOperation[];
  limit?: number;
}

export class AuditTrailError extends Error {
  constructor(
    readonly status: number,
    detail: string,
    readonly requestId: string | null,
  ) {
    super(detail);
    this.name = "AuditTrailError";
  }
}

export function auditTrailUrl(playerId: string, request: AuditPageRequest = {}): string {
  const query = new URLSearchParams();
  if (request.limit) query.set("limit", String(request.limit));
  if (request.operations?.length) query.set("operation", request.operations.join(","));
  if (request.cursor) query.set("cursor", request.cursor);
  const q = query.toString();
  return `/api/v1/players/${encodeURIComponent(playerId)}/audit${q ? `?${q}` : ""}`;
}

/** One page of the trail; a problem+json answer becomes an AuditTrailError with a readable message. */
export async function fetchAuditPage(
  fetcher: FetchLike,
  playerId: string,
  request: AuditPageRequest = {},
): Promise<AuditListResponse> {
  const response = await fetcher(auditTrailUrl(playerId, request), {
    headers: { Accept: "application/json" },
    cache: "no-store",
  });
  if (response.ok) return (await response.json()) as AuditListResponse;
  let detail = `The server answered ${response.status}.`;
  let requestId = response.headers.get("x-request-id");
  try {
    const problem = (await response.json()) as { detail?: string; request_id?: string };
    detail = problem.detail ?? detail;
    requestId = problem.request_id ?? requestId;
  } catch {
    // not problem+json
  }
  if (response.status === 403) detail = "Only admins (scope audit:read) can see the audit trail.";
  throw new AuditTrailError(response.status, detail, requestId);
}

const OPERATION_LABELS: Record<AuditOperation, string> = {
  profile: "Viewed profile",
  transactions: "Listed transactions",
  search: "Found in a search",
  export: "Exported transactions",
  transaction_facets: "Viewed the transaction filter values",
  monthly_activity: "Viewed the monthly activity",
  audit_trail: "Viewed this audit trail",
};

export function describeOperation(operation: AuditOperation): string {
  return OPERATION_LABELS[operation] ?? operation;
}

/** "event_type=bet,win · limit=5"; "—" when the request had no parameters. */
export function describeFilters(filters: AuditEvent["filters"]): string {
  const parts = Object.entries(filters).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : v}`);
  return parts.length ? parts.join(" · ") : "—";
}
