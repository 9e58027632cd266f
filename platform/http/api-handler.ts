/*
 * The API's request pipeline is one line in two halves, both in platform/http (docs/architecture.md, "One request").
 * Before Next.js routes a request, on the raw node:http server (plain JavaScript, preloaded by scripts/serve.mjs
 * through platform/runtime/server-preload.mjs, else installed by platform/runtime/server-hooks.ts):
 *   upgrade-guard.mjs   every Upgrade request answered 400 and closed
 *   request-stamp.mjs   the TCP peer recorded, a malformed path flagged, the security headers set; its gate,
 *   request-gate.mjs    a body over its bound 413, a foreign Host in demo mode 421
 *   protocol-guard.ts   TRACE and unknown methods answered 405
 * Then this module, for every route under app/api/v1 (`readRoute`):
 *   beginRequest → rejectMalformedPath → admitCaller → serveRead (the read, its audit row) → finishRequest
 */
import type { NextRequest } from "next/server";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import { log } from "@/platform/log/log";
import { invalidParameters, methodNotAllowed } from "@/platform/problems/problem";
import {
  type AnyReadDefinition,
  type ExportDefinition,
  parseReadInput,
  type ReadChoice,
  type ReadDefinition,
  type StreamDefinition,
} from "@/platform/reads/read-definition";
import { onReadDatabase } from "@/platform/reads/run-read";
import { admitCaller, refundQuota } from "./admission.ts";
import type { ApiHandler, ApiOptions, AuditedRead, RequestScope, RouteContext } from "./api-context.ts";
import { serveRead } from "./audited-read.ts";
import { clientAddress } from "./client-address.ts";
import { conditionalRead } from "./conditional.ts";
import { deprecationHeaders } from "./deprecation.ts";
import { exportResponse } from "./export-response.ts";
import { nextLinkHeaders } from "./next-link.ts";
import { clientRequestIdFor, newRequestId } from "./request-id.ts";
import { MALFORMED_PATH_HEADER, setResponseHeader } from "./request-stamp.mjs";
import { jsonResponse, problemResponse, wholeBodyLength } from "./responses.ts";
import { toProblem } from "./to-problem.ts";

/** The server flagged the path as malformed percent-encoding (see request-stamp.ts). */
export function rejectMalformedPath(request: Request): void {
  if (request.headers.get(MALFORMED_PATH_HEADER) === "1") {
    throw invalidParameters([
      { name: "path", in: "path", detail: "is not valid percent-encoded UTF-8 (a `%` must start an escape)" },
    ]);
  }
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

/** Stamps the answer (quota, request id, a deprecated operation's headers) and writes the access log line. */
function finishRequest(
  scope: RequestScope,
  response: Response,
  principal: ApiPrincipal | undefined,
  deprecation: Record<string, string> | undefined,
): Response {
  for (const [name, value] of Object.entries(scope.rateHeaders)) response.headers.set(name, value);
  // A deprecated operation's Link (its successor) joins a paged answer's rel="next" rather than replacing it.
  for (const [name, value] of Object.entries(deprecation ?? {})) {
    if (name === "Link") response.headers.append(name, value);
    else response.headers.set(name, value);
  }
  response.headers.set("X-Request-ID", scope.requestId);
  // Next.js drops a route handler's Content-Length: a body sent whole gets it on the Node.js response instead.
  const length = response.status === 304 ? undefined : wholeBodyLength(response);
  if (length !== undefined) setResponseHeader(scope.request.headers, "Content-Length", String(length));
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

/**
 * Wraps a GET route handler. Each request goes through these steps: begin (request id, URL, client address)
 * → reject a malformed path → admit the caller (admission.ts: authenticate, rate limit, scope) → serve the read
 * (audited-read.ts: the handler, then its audit row, committed before the answer) → make it conditional
 * (conditional.ts: ETag, `Cache-Control: private, no-store`, 304 for a current copy, audited as the read it
 * confirms, its quota token given back) → finish (quota and request id headers, access log). Any error thrown on the way becomes an RFC 9457 problem (to-problem.ts).
 *
 * Before any of this, the server's request stamp (request-stamp.ts, installed at start by
 * platform/runtime/server-hooks.ts) has rewritten the raw request: it records the peer address in a header the
 * client cannot set, and escapes stray `%` in the path so Next.js routes it instead of answering a bare 500
 * (flagged by MALFORMED_PATH_HEADER, answered here with a 400 naming `path`).
 */
export function withApi<P extends Record<string, string>>(handler: ApiHandler<P>, options: ApiOptions = {}) {
  // Computed once per route (a bad date fails at the route's first import, not per request).
  const deprecation = options.deprecation ? deprecationHeaders(options.deprecation) : undefined;
  // Named, so that CPU profiles show the step; the route's own handler is named in its module.
  return async function apiRequest(request: Request, route: RouteContext<P>): Promise<Response> {
    const scope = beginRequest(request);
    let principal: ApiPrincipal | undefined;
    let response: Response;
    try {
      rejectMalformedPath(request);
      principal = await admitCaller(scope, options);
      const params = (await route.params) ?? ({} as P);
      response = conditionalRead(request, await serveRead(scope, principal, params, handler));
      if (response.status === 304) {
        const refunded = refundQuota(scope);
        if (refunded) await refunded;
      }
    } catch (error) {
      const problem = toProblem(error, scope.requestId, scope.url.pathname);
      response = problemResponse(problem, scope.requestId, scope.url.pathname);
    }
    return finishRequest(scope, response, principal, deprecation);
  };
}

/** Handler for the methods a path does not support: 405 problem with Allow. */
export function methodNotAllowedHandler(allowed: readonly string[] = ["GET", "HEAD"]) {
  return async function methodNotAllowedRequest(request: Request): Promise<Response> {
    return problemResponse(
      methodNotAllowed(request.method, allowed),
      newRequestId(),
      new URL(request.url).pathname,
    );
  };
}

/** What a read-only route module exports: GET through withApi, a 405 problem for every other method. */
export type ReadRouteExports<P extends Record<string, string>> = ReturnType<typeof readOnlyMethods> & {
  GET: ReturnType<typeof withApi<P>>;
};

/** Every kind of read a route can serve, each defined in features/<name>/reads. */
export type RouteRead =
  | AnyReadDefinition
  | ReadChoice
  // biome-ignore lint/suspicious/noExplicitAny: a route serves a definition of any input
  | ExportDefinition<any, any>
  // biome-ignore lint/suspicious/noExplicitAny: a route serves a definition of any input
  | StreamDefinition<any, any>;

/**
 * Everything a read-only route exports, in one line:
 * `export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(definition)` for a read defined in
 * features/<name>/reads (a JSON read, shared with server rendering's caller; a choice of JSON reads; an export; a stream).
 * Every read of the API is such a definition; `readRoute(handler, options)` is left for the routes that read
 * no data (the OpenAPI document and its reference page).
 * GET (and HEAD, which Next.js derives from it) runs through withApi; every other method is a 405 problem.
 */
export function readRoute<P extends Record<string, string>>(
  read: RouteRead,
  options?: Pick<ApiOptions, "deprecation">,
): ReadRouteExports<P>;
export function readRoute<P extends Record<string, string>>(
  handler: ApiHandler<P>,
  options?: ApiOptions,
): ReadRouteExports<P>;
export function readRoute<P extends Record<string, string>>(
  read: ApiHandler<P> | RouteRead,
  options: ApiOptions = {},
) {
  const GET =
    typeof read === "function"
      ? withApi(read, options)
      : withApi<P>(definedHandler(read), { scope: read.scope, deprecation: options.deprecation });
  return { GET, ...readOnlyMethods() };
}

function definedHandler<P extends Record<string, string>>(read: RouteRead): ApiHandler<P> {
  switch (read.kind) {
    case "choice":
      return choiceHandler(read);
    case "export":
      return exportHandler(read);
    case "stream":
      return streamHandler(read);
    default:
      return readHandler(read);
  }
}

/**
 * A read definition as a route handler: parse the path and query, run the read on its database
 * (platform/reads/run-read.ts), declare its audit rows, answer.
 */
export function readHandler<P extends Record<string, string>, Q, B>(
  read: ReadDefinition<P, Q, B>,
): ApiHandler<P> {
  return async function definedRead({ params, url, principal, audit }) {
    const input = parseReadInput(read, params, url.searchParams);
    const result = await onReadDatabase(read.database, (db) => read.run({ ...input, principal, db }));
    // A read of no player data (null) is not audited, nor refused while the audit backlog is full.
    if (result.audit !== null) audit(result.audit);
    const next = read.next?.(result.body, input.query) ?? null;
    return jsonResponse(result.body, { headers: nextLinkHeaders(url, next) });
  };
}

/** Several reads at one path: the one the query string asks for. */
function choiceHandler<P extends Record<string, string>>(choice: ReadChoice): ApiHandler<P> {
  const handlers = new Map<AnyReadDefinition, ApiHandler<P>>();
  return async function chosenRead(context) {
    const read = choice.choose(context.url.searchParams);
    let handler = handlers.get(read);
    if (!handler) {
      handler = readHandler(read);
      handlers.set(read, handler);
    }
    return handler(context);
  };
}

/**
 * An export definition as a route handler: parse (a 400 takes no export slot), then in the export's slot
 * (export-response.ts) begin it on its database: every read and audit that can fail before the first byte.
 */
function exportHandler<P extends Record<string, string>, Q>(read: ExportDefinition<P, Q>): ApiHandler<P> {
  return async function definedExport(context) {
    const input = parseReadInput(read, context.params, context.url.searchParams);
    const head = context.request.method === "HEAD";
    return exportResponse(context, async () => {
      // An audit row that cannot be committed (the primary down) is no failure of the standby: while the export
      // opens, it leaves the router wrapped, so the router neither retries the opening nor marks the standby.
      let opening = true;
      const commitAudit = (audited: AuditedRead) =>
        context.commitAudit(audited).catch((error: unknown) => {
          throw opening ? new AuditNotCommitted(error) : error;
        });
      try {
        return await onReadDatabase(read.database, (db) =>
          read.begin({ ...input, principal: context.principal, db, head, commitAudit }),
        );
      } catch (error) {
        throw error instanceof AuditNotCommitted ? error.reason : error;
      } finally {
        opening = false;
      }
    });
  };
}

/** An export's audit row failed while it opened: carried past the read router as it is (see definedExport). */
class AuditNotCommitted {
  constructor(readonly reason: unknown) {}
}

/** A stream definition as a route handler: parse, then open the stream (its checks on its database). */
function streamHandler<P extends Record<string, string>, Q>(read: StreamDefinition<P, Q>): ApiHandler<P> {
  return async function definedStream(context) {
    const input = parseReadInput(read, context.params, context.url.searchParams);
    return onReadDatabase(read.database, (db) =>
      read.open({ ...input, principal: context.principal, db, context }),
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
