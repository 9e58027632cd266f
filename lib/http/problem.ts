import type { ProblemFieldError } from "@/lib/schemas/common";

/** Problem type URIs, relative to the service; each is described in the OpenAPI document. */
export const PROBLEM_TYPES = {
  invalidParameters: "/problems/invalid-parameters",
  unauthorized: "/problems/unauthorized",
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
