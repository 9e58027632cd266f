import type { ProblemFieldError } from "@/lib/schemas/common";

/** Problem type URIs, relative to the service; each is described in the OpenAPI document. */
export const PROBLEM_TYPES = {
  invalidParameters: "/problems/invalid-parameters",
  unauthorized: "/problems/unauthorized",
  insufficientScope: "/problems/insufficient-scope",
  rateLimited: "/problems/rate-limited",
  notFound: "/problems/not-found",
  methodNotAllowed: "/problems/method-not-allowed",
  unavailable: "/problems/service-unavailable",
  internal: "/problems/internal-error",
} as const;

/** An error that maps to an RFC 9457 response; anything else thrown in a handler becomes a generic 500. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly title: string,
    readonly detail: string,
    readonly errors?: ProblemFieldError[],
    readonly headers: Record<string, string> = {},
  ) {
    super(detail);
  }
}

export function invalidParameters(errors: ProblemFieldError[]): ApiError {
  const names = [...new Set(errors.map((e) => e.name))];
  const detail =
    errors.length === 1 && errors[0]
      ? `${errors[0].in === "header" ? "Header" : "Parameter"} '${errors[0].name}' ${errors[0].detail}.`
      : `Invalid parameters: ${names.map((n) => `'${n}'`).join(", ")}. See errors for each.`;
  return new ApiError(400, PROBLEM_TYPES.invalidParameters, "Invalid request parameters", detail, errors);
}

export function unauthorized(detail: string, errors?: ProblemFieldError[], invalidToken = false): ApiError {
  const challenge = invalidToken
    ? `Bearer realm="player-account-read", error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`
    : `Bearer realm="player-account-read"`;
  return new ApiError(401, PROBLEM_TYPES.unauthorized, "Unauthorized", detail, errors, {
    "WWW-Authenticate": challenge,
  });
}

/** RFC 6750 §3.1: the token is fine but does not carry the scope this operation needs. */
export function insufficientScope(scope: string): ApiError {
  return new ApiError(
    403,
    PROBLEM_TYPES.insufficientScope,
    "Insufficient scope",
    `This operation needs the '${scope}' scope, which the access token does not grant.`,
    undefined,
    {
      "WWW-Authenticate": `Bearer realm="player-account-read", error="insufficient_scope", scope="${scope}"`,
    },
  );
}

export function tooManyRequests(retryAfterSeconds: number, headers: Record<string, string>): ApiError {
  return new ApiError(
    429,
    PROBLEM_TYPES.rateLimited,
    "Too many requests",
    `This caller's request quota is used up; retry in ${retryAfterSeconds} s.`,
    undefined,
    { ...headers, "Retry-After": String(retryAfterSeconds) },
  );
}

export function notFound(detail: string): ApiError {
  return new ApiError(404, PROBLEM_TYPES.notFound, "Not found", detail);
}

export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return new ApiError(
    405,
    PROBLEM_TYPES.methodNotAllowed,
    "Method not allowed",
    `${method} is not supported here; use ${allowed.join(" or ")}.`,
    undefined,
    { Allow: allowed.join(", ") },
  );
}

export function serviceUnavailable(detail = "The database is unreachable; try again shortly."): ApiError {
  return new ApiError(503, PROBLEM_TYPES.unavailable, "Service unavailable", detail, undefined, {
    "Retry-After": "5",
  });
}
