import type { AuditOperationName as AuditOperation } from "@/platform/audit/audit-operations";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import type { Scope } from "@/platform/auth/scopes";
import type { DeprecationPolicy } from "./deprecation.ts";
import type { RateLimitDecision } from "./rate-limit.ts";

/** What a handler tells the audit trail about the read it served. */
export interface AuditedRead {
  operation: AuditOperation;
  /** The player named in the path (null for a search). */
  playerId: string | null;
  /** For a search: the players whose data the response contains. */
  resultPlayerIds?: string[];
}

/** The parts of the request URL handlers read. */
export type RequestUrl = Pick<URL, "pathname" | "searchParams">;

export interface ApiContext<P> {
  request: Request;
  url: RequestUrl;
  params: P;
  principal: ApiPrincipal;
  /** Who is calling, for per-caller limits: `sub:<subject>` for a verified token, else the client address. */
  caller: string;
  requestId: string;
  /**
   * Marks this request as a read of player data: it is recorded in the audit trail if the response is a
   * success (or a 304, which confirms the caller's copy). A list declares one row per player read. Call it before building the response. Throws 503 while the audit backlog is full, so no read
   * is served that could not be accounted for.
   */
  audit: (read: AuditedRead | readonly AuditedRead[]) => void;
  /**
   * Records a further read of this request at once (a streamed export audits each batch before sending it):
   * resolves when its row is committed; rejects (503) when it cannot be, and the data must then not be sent.
   */
  commitAudit: (read: AuditedRead) => Promise<void>;
}

export interface RouteContext<P> {
  params: Promise<P>;
}

/** What one request carries through the steps of withApi. */
export interface RequestScope {
  request: Request;
  url: RequestUrl;
  requestId: string;
  clientRequestId: string | null;
  address: string | null;
  started: number;
  /** The caller's quota, sent with every answer once the rate limit has run. */
  rateHeaders: Record<string, string>;
  /** The token this request took from its caller's bucket (admission.ts), for a 304 to give back. */
  charge?: { key: string; decision: RateLimitDecision };
}

export type ApiHandler<P> = (ctx: ApiContext<P>) => Promise<Response>;

export interface ApiOptions {
  /** `false` for routes anyone may call (no credentials, no rate limit). */
  auth?: boolean;
  /** A deprecated operation: every answer carries Deprecation, Sunset and Link (deprecation.ts). */
  deprecation?: DeprecationPolicy;
  /** The scope the operation needs; `players:read` by default. */
  scope?: Scope;
}
