import type { Problem, ProblemFieldError } from "@/platform/schemas/common";
import { type ProblemSlug, problemTypeUri } from "./problem-types.mjs";

/**
 * Problem types by name: slugs of the registry (problem-types.mjs), whose absolute URI
 * `<public origin>/problems/<slug>` is a page describing the type (app/problems/[slug]).
 */
export const PROBLEM_TYPES = {
  invalidParameters: "invalid-parameters",
  unauthorized: "unauthorized",
  insufficientScope: "insufficient-scope",
  /** The scope is there, but this caller may not read this resource (another manager's portfolio). */
  forbidden: "forbidden",
  rateLimited: "rate-limited",
  /**
   * The caller already runs EXPORT_PER_CALLER exports (export-gate.ts): not its request quota, which may have
   * plenty left; retry when one of its exports has finished, the quota's RateLimit headers do not apply.
   */
  tooManyExports: "too-many-exports",
  notFound: "not-found",
  methodNotAllowed: "method-not-allowed",
  /** GET /changes: a position from another feed, or below the pruned horizon (a full read is needed). */
  feedGone: "feed-gone",
  /** Answered before routing (request-gate.mjs): a body over the bound, a foreign Host in demo mode. */
  contentTooLarge: "content-too-large",
  misdirectedRequest: "misdirected-request",
  unavailable: "service-unavailable",
  internal: "internal-error",
} as const satisfies Record<string, ProblemSlug>;

export interface ApiErrorOptions {
  status: number;
  /**
   * One of PROBLEM_TYPES (a slug of the registry); the error carries its absolute URI. `about:blank` (RFC 9457
   * §4.2.1) only for malformed HTTP answered below routing, where the status says it all.
   */
  type: ProblemSlug | "about:blank";
  title: string;
  detail: string;
  /** For invalid requests: each offending parameter or header. */
  errors?: ProblemFieldError[];
  /** Sent with the problem, e.g. `WWW-Authenticate`, `Allow`, `Retry-After`. */
  headers?: Record<string, string>;
}

/** An error that maps to an RFC 9457 response; anything else thrown in a handler becomes a generic 500. */
export class ApiError extends Error {
  readonly status: number;
  /** The problem type's absolute URI. */
  readonly type: string;
  readonly slug: ProblemSlug | "about:blank";
  readonly title: string;
  readonly detail: string;
  readonly errors: ProblemFieldError[] | undefined;
  readonly headers: Record<string, string>;

  constructor(options: ApiErrorOptions) {
    super(options.detail);
    this.status = options.status;
    this.slug = options.type;
    this.type = options.type === "about:blank" ? options.type : problemTypeUri(options.type);
    this.title = options.title;
    this.detail = options.detail;
    this.errors = options.errors;
    this.headers = options.headers ?? {};
  }
}

export function invalidParameters(errors: ProblemFieldError[]): ApiError {
  const names = [...new Set(errors.map((e) => e.name))];
  const detail =
    errors.length === 1 && errors[0]
      ? `${errors[0].in === "header" ? "Header" : "Parameter"} '${errors[0].name}' ${errors[0].detail}.`
      : `Invalid parameters: ${names.map((n) => `'${n}'`).join(", ")}. See errors for each.`;
  return new ApiError({
    status: 400,
    type: PROBLEM_TYPES.invalidParameters,
    title: "Invalid request parameters",
    detail,
    errors,
  });
}

export interface UnauthorizedOptions {
  detail: string;
  /** The header at fault (Authorization, X-Session-ID) and why. */
  errors?: ProblemFieldError[];
  /** RFC 6750 `error="invalid_token"` in the challenge: the token itself is refused, not merely missing. */
  invalidToken?: boolean;
}

export function unauthorized({ detail, errors, invalidToken = false }: UnauthorizedOptions): ApiError {
  const challenge = invalidToken
    ? `Bearer realm="player-account-read", error="invalid_token", error_description="${detail.replace(/"/g, "'")}"`
    : `Bearer realm="player-account-read"`;
  return new ApiError({
    status: 401,
    type: PROBLEM_TYPES.unauthorized,
    title: "Unauthorized",
    detail,
    errors,
    headers: { "WWW-Authenticate": challenge },
  });
}

/** RFC 6750 §3.1: the token is fine but does not carry the scope this operation needs. */
export function insufficientScope(scope: string): ApiError {
  return new ApiError({
    status: 403,
    type: PROBLEM_TYPES.insufficientScope,
    title: "Insufficient scope",
    detail: `This operation needs the '${scope}' scope, which the access token does not grant.`,
    headers: {
      "WWW-Authenticate": `Bearer realm="player-account-read", error="insufficient_scope", scope="${scope}"`,
    },
  });
}

/** 403 for a caller whose role does not reach this resource; `errors` names the parameter that asked for it. */
export function forbidden(detail: string, errors?: ProblemFieldError[]): ApiError {
  return new ApiError({
    status: 403,
    type: PROBLEM_TYPES.forbidden,
    title: "Forbidden",
    detail,
    ...(errors ? { errors } : {}),
  });
}

export function tooManyRequests(retryAfterSeconds: number, headers: Record<string, string>): ApiError {
  return new ApiError({
    status: 429,
    type: PROBLEM_TYPES.rateLimited,
    title: "Too many requests",
    detail: `This caller's request quota is used up; retry in ${retryAfterSeconds} s.`,
    headers: { ...headers, "Retry-After": String(retryAfterSeconds) },
  });
}

export function notFound(detail: string): ApiError {
  return new ApiError({ status: 404, type: PROBLEM_TYPES.notFound, title: "Not found", detail });
}

export function methodNotAllowed(method: string, allowed: readonly string[]): ApiError {
  return new ApiError({
    status: 405,
    type: PROBLEM_TYPES.methodNotAllowed,
    title: "Method not allowed",
    detail: `${method} is not supported here; use ${allowed.join(" or ")}.`,
    headers: { Allow: allowed.join(", ") },
  });
}

/** 410: the change feed cannot continue from this position; `errors` names `feed` or `after`. */
export function feedGone(detail: string, errors: ProblemFieldError[]): ApiError {
  return new ApiError({
    status: 410,
    type: PROBLEM_TYPES.feedGone,
    title: "Change feed position gone",
    detail,
    errors,
  });
}

export function serviceUnavailable(detail = "The database is unreachable; try again shortly."): ApiError {
  return new ApiError({
    status: 503,
    type: PROBLEM_TYPES.unavailable,
    title: "Service unavailable",
    detail,
    headers: { "Retry-After": "5" },
  });
}

/** The RFC 9457 body of an error: what every problem response carries. */
export function problemBody(error: ApiError, requestId: string, instance?: string): Problem {
  return {
    type: error.type,
    title: error.title,
    status: error.status,
    detail: error.detail,
    ...(instance ? { instance } : {}),
    request_id: requestId,
    ...(error.errors ? { errors: error.errors } : {}),
  };
}
