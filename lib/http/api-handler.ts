import { type ApiPrincipal, authenticateApiRequest } from "@/lib/auth/api-auth";
import { describeError, log } from "@/lib/log";
import type { Problem } from "@/lib/schemas/common";
import { stringifyJson } from "./json.ts";
import { ApiError, methodNotAllowed, PROBLEM_TYPES, serviceUnavailable } from "./problem.ts";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdFor(request: Request): string {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : crypto.randomUUID();
}

export interface ApiContext<P> {
  request: Request;
  url: URL;
  params: P;
  principal: ApiPrincipal;
  requestId: string;
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

/** Connection-level failures (server down, refused, timed out) are a 503, not a bug. */
function isDatabaseUnavailable(error: unknown): boolean {
  const seen = new Set<unknown>();
  let current: unknown = error;
  while (current && typeof current === "object" && !seen.has(current)) {
    seen.add(current);
    const e = current as { code?: unknown; name?: unknown; message?: unknown; cause?: unknown };
    const code = typeof e.code === "string" ? e.code : "";
    if (
      [
        "ECONNREFUSED",
        "ECONNRESET",
        "ETIMEDOUT",
        "ENOTFOUND",
        "EPIPE",
        "P1001",
        "P1002",
        "P1017",
        "57P01",
        "57P03",
      ].includes(code)
    ) {
      return true;
    }
    if (
      typeof e.message === "string" &&
      /Connection terminated|connect ECONNREFUSED|timeout exceeded when trying to connect|DatabaseNotReachable|Can't reach database/i.test(
        e.message,
      )
    ) {
      return true;
    }
    current = e.cause;
  }
  return false;
}

export function toProblem(error: unknown, requestId: string, route: string): ApiError {
  if (error instanceof ApiError) return error;
  if (isDatabaseUnavailable(error)) {
    log.warn("database unavailable", { requestId, route, ...describeError(error) });
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

/**
 * Wraps a GET route handler: request id, authentication, error → problem+json mapping, access log.
 * Handlers receive parsed params and a verified principal and return a Response.
 */
export function withApi<P extends Record<string, string>>(
  handler: (ctx: ApiContext<P>) => Promise<Response>,
  options: { auth?: boolean } = {},
) {
  return async (request: Request, route: RouteContext<P>): Promise<Response> => {
    const started = performance.now();
    const requestId = requestIdFor(request);
    const url = new URL(request.url);
    let response: Response;
    try {
      const principal =
        options.auth === false
          ? { subject: "anonymous", sessionId: "", mode: "demo" as const, claims: null }
          : await authenticateApiRequest(request.headers);
      const params = (await route.params) ?? ({} as P);
      response = await handler({ request, url, params, principal, requestId });
      response.headers.set("X-Request-ID", requestId);
    } catch (error) {
      response = problemResponse(toProblem(error, requestId, url.pathname), requestId, url.pathname);
    }
    log.info("request", {
      requestId,
      method: request.method,
      route: url.pathname,
      status: response.status,
      durationMs: Math.round(performance.now() - started),
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
