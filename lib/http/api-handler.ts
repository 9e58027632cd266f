import { after } from "next/server";
import type { AuditRecord } from "@/lib/audit/audit-queue";
import { getAuditQueue } from "@/lib/audit/audit-recorder";
import { type ApiPrincipal, authenticateApiRequest } from "@/lib/auth/api-auth";
import { hasScope, SCOPES, type Scope } from "@/lib/auth/scopes";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { describeError, log } from "@/lib/log";
import type { AuditFilters, AuditOperation } from "@/lib/schemas/audit";
import type { Problem } from "@/lib/schemas/common";
import { addressRateKey, clientAddress } from "./client-address.ts";
import { stringifyJson } from "./json.ts";
import {
  ApiError,
  insufficientScope,
  invalidParameters,
  methodNotAllowed,
  PROBLEM_TYPES,
  serviceUnavailable,
  tooManyRequests,
} from "./problem.ts";
import { getRateLimiter } from "./rate-limit.ts";
import { MALFORMED_PATH_HEADER } from "./request-stamp.ts";

export { isDatabaseUnavailable };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

/** What a handler tells the audit trail about the read it served. */
export interface AuditedRead {
  operation: AuditOperation;
  /** The player named in the path (null for a search). */
  playerId: string | null;
  /** For a search: the players whose data the response contains. */
  resultPlayerIds?: string[];
}

export interface ApiContext<P> {
  request: Request;
  url: URL;
  params: P;
  principal: ApiPrincipal;
  requestId: string;
  /**
   * Marks this request as a read of player data: it is recorded in the audit trail if the response is a
   * success. Call it before building the response. Throws 503 while the audit backlog is full, so no read
   * is served that could not be accounted for.
   */
  audit: (read: AuditedRead) => void;
}

export interface RouteContext<P> {
  params: Promise<P>;
}

/** Player data must never be stored by browsers or intermediaries. */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  return new Response(stringifyJson(body), {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...init.headers,
    },
  });
}

export function problemResponse(error: ApiError, requestId: string, instance?: string): Response {
  const body: Problem = {
    type: error.type,
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...(instance ? { instance } : {}),
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
  return new Response(JSON.stringify(body), {
    status: error.status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      "X-Request-ID": requestId,
      ...error.headers,
    },
  });
}

/** The server flagged the path as malformed percent-encoding (see request-stamp.ts). */
export function rejectMalformedPath(request: Request): void {
  if (request.headers.get(MALFORMED_PATH_HEADER) === "1") {
    throw invalidParameters([
      { name: "path", in: "path", detail: "is not valid percent-encoded UTF-8 (a `%` must start an escape)" },
    ]);
  }
}

const outageLog = { last: 0, quiet: 0 };

export function toProblem(error: unknown, requestId: string, route: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    // During an outage every request fails the same way: one line per 10 s says so (the access log has each 503).
    const now = Date.now();
    if (now - outageLog.last >= 10_000) {
      log.warn("database unavailable", {
        requestId,
        route,
        alsoFailedSinceLastLine: outageLog.quiet,
        ...describeError(error),
      });
      outageLog.last = now;
      outageLog.quiet = 0;
    } else {
      outageLog.quiet += 1;
    }
    return serviceUnavailable();
  }
  log.error("unhandled error", { requestId, route, ...describeError(error) });
  return new ApiError(
    500,
    PROBLEM_TYPES.internal,
    "Internal error",
    `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
  );
}

/** Query parameters as sent: one value → string, repeated → array (what the audit trail records). */
export function requestFilters(params: URLSearchParams): AuditFilters {
  const filters: AuditFilters = {};
  for (const [key, value] of params) {
    const seen = filters[key];
    filters[key] = seen === undefined ? value : Array.isArray(seen) ? [...seen, value] : [seen, value];
  }
  return filters;
}

const ANONYMOUS: ApiPrincipal = {
  subject: "anonymous",
  sessionId: "",
  mode: "demo",
  claims: null,
  verified: false,
  scopes: [],
  roles: [],
};

/** Queues the audit record; Next.js keeps the process alive until it is written (`after`, also on SIGTERM). */
function recordAudit(record: AuditRecord): void {
  const written = getAuditQueue().enqueue(record);
  try {
    after(() => written);
  } catch {
    // Outside a Next.js request (unit tests, scripts): nothing to keep alive.
  }
}

/**
 * Wraps a GET route handler: request id, authentication, rate limiting, scope check, error →
 * problem+json mapping, audit recording and the access log. Handlers receive parsed params and a verified
 * principal and return a Response.
 *
 * Rate limiting is keyed by the verified token subject, else by the client address; it runs before the
 * credentials are judged, so guessing tokens is limited too.
 */
export function withApi<P extends Record<string, string>>(
  handler: (ctx: ApiContext<P>) => Promise<Response>,
  options: { auth?: boolean; scope?: Scope } = {},
) {
  return async (request: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(request);
    const url = new URL(request.url);
    const address = clientAddress(request.headers);
    log.debug("request started", { requestId, method: request.method, route: url.pathname });
    let principal: ApiPrincipal | undefined;
    let rateHeaders: Record<string, string> = {};
    let read: AuditedRead | undefined;
    let response: Response;
    try {
      rejectMalformedPath(request);
      if (options.auth === false) {
        principal = ANONYMOUS;
      } else {
        let authError: unknown;
        try {
          principal = await authenticateApiRequest(request.headers);
        } catch (error) {
          authError = error;
        }
        const limiter = getRateLimiter();
        if (limiter) {
          const key = principal?.verified ? `sub:${principal.subject}` : addressRateKey(address);
          const decision = await limiter.check(key);
          rateHeaders = decision.headers;
          if (!decision.allowed) throw tooManyRequests(decision.resetSeconds, rateHeaders);
        }
        if (authError || !principal) throw authError;
        const scope = options.scope ?? SCOPES.playersRead;
        if (!hasScope(principal, scope)) throw insufficientScope(scope);
      }
      const params = (await route.params) ?? ({} as P);
      const caller = principal;
      response = await handler({
        request,
        url,
        params,
        principal: caller,
        requestId,
        audit: (r) => {
          if (getAuditQueue().isFull()) {
            throw serviceUnavailable(
              "Reads cannot be recorded in the audit trail right now; try again shortly.",
            );
          }
          read = r;
        },
      });
      if (read && response.ok) {
        recordAudit({
          occurredAt: new Date(),
          subject: caller.subject,
          authMode: caller.mode,
          scopes: [...caller.scopes],
          sessionId: caller.sessionId,
          operation: read.operation,
          playerId: read.playerId,
          resultPlayerIds: read.resultPlayerIds ?? [],
          filters: requestFilters(url.searchParams),
          requestId,
          clientAddress: address,
        });
      }
    } catch (error) {
      response = problemResponse(toProblem(error, requestId, url.pathname), requestId, url.pathname);
    }
    for (const [name, value] of Object.entries(rateHeaders)) response.headers.set(name, value);
    response.headers.set("X-Request-ID", requestId);
    log.info("request", {
      requestId,
      method: request.method,
      route: url.pathname,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
      subject: principal?.subject,
    });
    return response;
  };
}

/** Handler for the methods a path does not support: 405 problem with Allow. */
export function methodNotAllowedHandler(allowed: readonly string[] = ["GET", "HEAD"]) {
  return async (request: Request): Promise<Response> => {
    const requestId = requestIdFor(request);
    return problemResponse(
      methodNotAllowed(request.method, allowed),
      requestId,
      new URL(request.url).pathname,
    );
  };
}

/**
 * The 405 handlers for a read-only route: export them so that every method but GET/HEAD gets a
 * problem+json 405 with Allow and X-Request-ID (Next's own 405 and OPTIONS answers carry neither).
 */
export function readOnlyMethods() {
  const handler = methodNotAllowedHandler();
  return { POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}
