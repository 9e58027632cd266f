import { randomUUID } from "node:crypto";
import type { NextRequest } from "next/server";
import type { AuditRecord } from "@/lib/audit/audit-queue";
import { getAuditQueue } from "@/lib/audit/audit-recorder";
import { subjectNameFromClaims } from "@/lib/audit/subject-name";
import { type ApiPrincipal, authenticate } from "@/lib/auth/api-auth";
import { hasScope, SCOPES, type Scope } from "@/lib/auth/scopes";
import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { APP_ERROR_CODES, AppError } from "@/lib/errors";
import { describeError, log } from "@/lib/log";
import type { AuditFilters, AuditOperation } from "@/lib/schemas/audit";
import { addressRateKey, clientAddress } from "./client-address.ts";
import { stringifyJson } from "./json.ts";
import {
  ApiError,
  insufficientScope,
  invalidParameters,
  methodNotAllowed,
  notFound,
  PROBLEM_TYPES,
  problemBody,
  serviceUnavailable,
  tooManyRequests,
} from "./problem.ts";
import { getRateLimiter, type RateLimitDecision } from "./rate-limit.ts";
import { MALFORMED_PATH_HEADER } from "./request-stamp.mjs";

export { isDatabaseUnavailable };

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The server's own id for a request: in the access log, the audit row and the answer's X-Request-ID. A client's
 * X-Request-ID is recorded beside it (clientRequestIdFor), never taken as the id: a client could otherwise make
 * its reads look like another's.
 */
export function newRequestId(): string {
  // node:crypto's own: Next.js wraps the global crypto.randomUUID with a check for prerendering on every call.
  return randomUUID();
}

/** The X-Request-ID the client sent, when it is well-formed; else null. */
export function clientRequestIdFor(request: Request): string | null {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : null;
}

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
  return new Response(JSON.stringify(problemBody(error, requestId, instance)), {
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
  if (error instanceof AppError && error.code === APP_ERROR_CODES.notFound) return notFound(error.message);
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
  return new ApiError({
    status: 500,
    type: PROBLEM_TYPES.internal,
    title: "Internal error",
    detail: `Something went wrong on our side. Quote request id ${requestId} when reporting it.`,
  });
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

/** Rate limits and export caps count per verified token subject, else per client address. */
function callerKey(principal: ApiPrincipal | undefined, address: string | null): string {
  return principal?.verified ? `sub:${principal.subject}` : addressRateKey(address);
}

/** What one request carries through the steps of withApi. */
interface RequestScope {
  request: Request;
  url: RequestUrl;
  requestId: string;
  clientRequestId: string | null;
  address: string | null;
  started: number;
  /** The caller's quota, sent with every answer once the rate limit has run. */
  rateHeaders: Record<string, string>;
}

function beginRequest(request: Request): RequestScope {
  const scope: RequestScope = {
    request,
    // Next.js has parsed the URL of the request it hands a route handler already.
    url: "nextUrl" in request ? (request as NextRequest).nextUrl : new URL(request.url),
    requestId: newRequestId(),
    clientRequestId: clientRequestIdFor(request),
    address: clientAddress(request.headers),
    started: performance.now(),
    rateHeaders: {},
  };
  if (log.enabled("debug")) {
    log.debug("request started", {
      requestId: scope.requestId,
      clientRequestId: scope.clientRequestId,
      method: request.method,
      route: scope.url.pathname,
    });
  }
  return scope;
}

/** Counts the request against the caller's quota; throws 429 beyond it. Answers at once for the memory store. */
function enforceRateLimit(scope: RequestScope, principal: ApiPrincipal | undefined): void | Promise<void> {
  const limiter = getRateLimiter();
  if (!limiter) return;
  const decision = limiter.check(callerKey(principal, scope.address));
  if (decision instanceof Promise) return decision.then((d) => applyQuota(scope, d));
  applyQuota(scope, decision);
}

function applyQuota(scope: RequestScope, decision: RateLimitDecision): void {
  scope.rateHeaders = decision.headers;
  if (!decision.allowed) throw tooManyRequests(decision.resetSeconds, scope.rateHeaders);
}

/**
 * Who is calling and whether they may: authentication, then the rate limit, then the scope. The rate limit
 * runs before a failed authentication is reported, so requests with bad credentials use up the address's
 * quota too and guessing tokens is limited. A token verified a moment ago and the memory store answer at
 * once: this step then waits for no promise.
 */
async function admitCaller(scope: RequestScope, options: ApiOptions): Promise<ApiPrincipal> {
  if (options.auth === false) return ANONYMOUS;
  let principal: ApiPrincipal | undefined;
  let failure: unknown;
  try {
    const authenticated = authenticate(scope.request.headers);
    principal = authenticated instanceof Promise ? await authenticated : authenticated;
  } catch (error) {
    failure = error;
  }
  const limited = enforceRateLimit(scope, principal);
  if (limited) await limited;
  if (!principal) throw failure;
  const needed = options.scope ?? SCOPES.playersRead;
  if (!hasScope(principal, needed)) throw insufficientScope(needed);
  return principal;
}

/** Refuses a read that could not be accounted for: 503 while the audit backlog is full. */
function assertAuditable(): void {
  if (getAuditQueue().isFull()) throw auditUnavailable();
}

function auditRecord(scope: RequestScope, principal: ApiPrincipal, read: AuditedRead): AuditRecord {
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
async function serveRead<P>(
  scope: RequestScope,
  principal: ApiPrincipal,
  params: P,
  handler: ApiHandler<P>,
): Promise<Response> {
  let declared: AuditedRead | undefined;
  const response = await handler({
    request: scope.request,
    url: scope.url,
    params,
    principal,
    caller: callerKey(principal, scope.address),
    requestId: scope.requestId,
    audit: (read) => {
      assertAuditable();
      declared = read;
    },
  });
  if (declared && response.ok) await recordBeforeAnswering(response, auditRecord(scope, principal, declared));
  return response;
}

/**
 * The answer leaves the process only once its audit row is committed (group commit, audit-queue.ts): a crash
 * at any moment loses no record of a read that was answered. A read that cannot be recorded answers 503.
 */
async function recordBeforeAnswering(response: Response, record: AuditRecord): Promise<void> {
  try {
    await getAuditQueue().add(record);
  } catch (error) {
    await response.body?.cancel().catch(() => {});
    if (isDatabaseUnavailable(error)) throw error;
    throw auditUnavailable();
  }
}

function auditUnavailable(): ApiError {
  return serviceUnavailable("Reads cannot be recorded in the audit trail right now; try again shortly.");
}

/** Stamps the answer (quota, request id) and writes the access log line. */
function finishRequest(
  scope: RequestScope,
  response: Response,
  principal: ApiPrincipal | undefined,
): Response {
  for (const [name, value] of Object.entries(scope.rateHeaders)) response.headers.set(name, value);
  response.headers.set("X-Request-ID", scope.requestId);
  if (log.enabled("info")) {
    log.request({
      requestId: scope.requestId,
      clientRequestId: scope.clientRequestId,
      method: scope.request.method,
      route: scope.url.pathname,
      status: response.status,
      durationMs: Math.round(performance.now() - scope.started),
      subject: principal?.subject,
    });
  }
  return response;
}

type ApiHandler<P> = (ctx: ApiContext<P>) => Promise<Response>;

interface ApiOptions {
  /** `false` for routes anyone may call (no credentials, no rate limit). */
  auth?: boolean;
  /** The scope the operation needs; `players:read` by default. */
  scope?: Scope;
}

/**
 * Wraps a GET route handler. Each request goes through these steps, each a function above:
 * begin (request id, URL, client address) → reject a malformed path → admit the caller (authenticate,
 * rate limit, scope) → serve the read (the handler, then its audit record) → finish (quota and request id
 * headers, access log). Any error thrown on the way becomes an RFC 9457 problem (toProblem).
 *
 * Before any of this, the server's request stamp (request-stamp.ts, installed at start by
 * lib/runtime/server-hooks.ts) has rewritten the raw request: it records the peer address in a header the
 * client cannot set, and escapes stray `%` in the path so Next.js routes it instead of answering a bare 500
 * (flagged by MALFORMED_PATH_HEADER, answered here with a 400 naming `path`).
 */
export function withApi<P extends Record<string, string>>(handler: ApiHandler<P>, options: ApiOptions = {}) {
  return async (request: Request, route: RouteContext<P>): Promise<Response> => {
    const scope = beginRequest(request);
    let principal: ApiPrincipal | undefined;
    let response: Response;
    try {
      rejectMalformedPath(request);
      principal = await admitCaller(scope, options);
      const params = (await route.params) ?? ({} as P);
      response = await serveRead(scope, principal, params, handler);
    } catch (error) {
      const problem = toProblem(error, scope.requestId, scope.url.pathname);
      response = problemResponse(problem, scope.requestId, scope.url.pathname);
    }
    return finishRequest(scope, response, principal);
  };
}

/** Handler for the methods a path does not support: 405 problem with Allow. */
export function methodNotAllowedHandler(allowed: readonly string[] = ["GET", "HEAD"]) {
  return async (request: Request): Promise<Response> => {
    const requestId = newRequestId();
    return problemResponse(
      methodNotAllowed(request.method, allowed),
      requestId,
      new URL(request.url).pathname,
    );
  };
}

/**
 * Everything a read-only route exports, in one line:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(handler, options)`.
 * GET (and HEAD, which Next.js derives from it) runs through withApi; every other method is a 405 problem.
 */
export function readRoute<P extends Record<string, string>>(
  handler: ApiHandler<P>,
  options: ApiOptions = {},
) {
  return { GET: withApi(handler, options), ...readOnlyMethods() };
}

/**
 * The 405 handlers for a read-only route: export them so that every method but GET/HEAD gets a
 * problem+json 405 with Allow and X-Request-ID (Next's own 405 and OPTIONS answers carry neither).
 */
export function readOnlyMethods() {
  const handler = methodNotAllowedHandler();
  return { POST: handler, PUT: handler, PATCH: handler, DELETE: handler, OPTIONS: handler };
}
