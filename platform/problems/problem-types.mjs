/*
 * The one registry of problem types (RFC 9457): each type's slug, title, status, whether a retry can succeed and
 * what a client should do. The responses (platform/problems/problem.ts, platform/http/request-gate.mjs before routing), the
 * OpenAPI document's examples (platform/openapi/operation-parts.ts) and the pages at /problems/<slug> (app/problems)
 * read it.
 * A type's URI is absolute: `<PUBLIC_ORIGIN>/problems/<slug>` (publicOriginOf below; docs/configuration.md).
 *
 * Plain JavaScript: the request gate runs before Next.js (platform/runtime/server-preload.mjs).
 */

/** @type {readonly import("./problem-types.d.mts").ProblemTypeEntry[]} */
export const PROBLEM_TYPE_LIST = Object.freeze([
  {
    slug: "invalid-parameters",
    title: "Invalid request parameters",
    status: 400,
    retryable: false,
    description:
      "A query parameter, path segment or header is missing, malformed, unknown, repeated where one value is allowed, or out of range. `errors[]` names each one (`name`, `in`, `detail`).",
    action:
      "Fix each parameter named in `errors[]` and send the request again; the same request will fail again.",
    example: "Parameter 'limit' must be an integer between 1 and 100.",
  },
  {
    slug: "unauthorized",
    title: "Unauthorized",
    status: 401,
    retryable: false,
    description:
      "The `Authorization` bearer token or the `X-Session-ID` header is missing, or the token was refused (expired, wrong issuer or audience, lives too long, signed with an unknown key). Sent with `WWW-Authenticate: Bearer`.",
    action:
      "Get a new access token (client credentials: ask the token endpoint again) and retry once with it; if that fails too, the client's configuration is wrong.",
    example: "The access token has expired.",
  },
  {
    slug: "insufficient-scope",
    title: "Insufficient scope",
    status: 403,
    retryable: false,
    description:
      'The token is valid but does not grant the scope this operation needs. `WWW-Authenticate` names it (`error="insufficient_scope", scope="…"`).',
    action: "Ask for a token with the scope named in `WWW-Authenticate` (the client must be allowed it).",
    example: "This operation needs the 'audit:read' scope, which the access token does not grant.",
  },
  {
    slug: "forbidden",
    title: "Forbidden",
    status: 403,
    retryable: false,
    description:
      "The token has the scope, but this caller may not read this resource (another VIP manager's portfolio, say). `errors[]` names the parameter that asked for it.",
    action: "Do not retry: ask for the resource the caller may read, or an administrator for the role.",
    example: "A VIP manager reads only their own portfolio.",
  },
  {
    slug: "not-found",
    title: "Not found",
    status: 404,
    retryable: false,
    description: "No such player (or no such path).",
    action: "Check the id; a player that does not exist will not appear on a retry.",
    example: "No player with id P999999.",
  },
  {
    slug: "method-not-allowed",
    title: "Method not allowed",
    status: 405,
    retryable: false,
    description: "The API is read-only: only GET and HEAD are answered. `Allow` lists them.",
    action: "Use GET (or HEAD).",
    example: "POST is not supported here; use GET or HEAD.",
  },
  {
    slug: "feed-gone",
    title: "Change feed position gone",
    status: 410,
    retryable: false,
    description:
      "`GET /changes` cannot continue from this position: the `feed` sent is not this database's feed (the database was restored from a dump, re-created, recovered to a point in time, or its feed was reset), or entries after `after` were deleted from the log (pruned). `errors[]` names the parameter (`feed` or `after`).",
    action:
      "Start again with a full read: note `feed` and `tail` from `GET /changes?limit=1`, read everything you keep, then follow from that `tail` with that `feed`. The same request will fail again.",
    example:
      "This position was issued by another change feed (the database was restored, re-created or reset since): start again with a full read.",
  },
  {
    slug: "content-too-large",
    title: "Content too large",
    status: 413,
    retryable: false,
    description:
      "The request carries a body larger than the resource accepts (reads take none). Answered before routing.",
    action: "Send the request without a body.",
    example: "This request takes no body.",
  },
  {
    slug: "misdirected-request",
    title: "Misdirected request",
    status: 421,
    retryable: false,
    description:
      "A demo server answers only its own host names (localhost, 127.0.0.1, [::1], NEXTAUTH_URL's and LISTEN_HOST's); another `Host` is refused. Answered before routing.",
    action: "Call the server by one of its own host names.",
    example: "This demo server answers only its own host names.",
  },
  {
    slug: "rate-limited",
    title: "Too many requests",
    status: 429,
    retryable: true,
    description:
      "The caller's request quota (or its concurrent exports or live streams) is used up. `Retry-After` says when to come back; the RateLimit headers describe the quota.",
    action: "Wait the `Retry-After` seconds, then retry. Spread a job's requests to stay within the quota.",
    example: "This caller's request quota is used up; retry in 42 s.",
  },
  {
    slug: "too-many-exports",
    title: "Too many exports",
    status: 429,
    retryable: true,
    description:
      "The caller already runs as many exports at once as it may (server setting EXPORT_PER_CALLER). Not its request quota, which may have plenty left: the RateLimit headers do not apply.",
    action:
      "Retry when one of the caller's running exports has finished (after `Retry-After`); run exports one after another.",
    example: "This caller already runs 2 exports; retry when one has finished.",
  },
  {
    slug: "internal-error",
    title: "Internal error",
    status: 500,
    retryable: true,
    description:
      "An unexpected failure on the server. The body carries only a request id; the cause is logged.",
    action:
      "Retry once after a short pause (reads have no side effects); if it persists, report the `request_id`.",
    example:
      "Something went wrong on our side. Quote request id 0b7d6f0e-6c1a-4a53-9d5e-2f1f2a0c3b4d when reporting it.",
  },
  {
    slug: "service-unavailable",
    title: "Service unavailable",
    status: 503,
    retryable: true,
    description:
      "The database is unreachable or too slow, reads cannot be audited right now, an export waited too long for a slot, or the issuer's key set cannot be fetched.",
    action: "Wait the `Retry-After` seconds, then retry with backoff.",
    example: "The database is unreachable; try again shortly.",
  },
]);

/** @param {string} slug */
export function problemTypeEntry(slug) {
  const entry = PROBLEM_TYPE_LIST.find((e) => e.slug === slug);
  if (!entry) throw new Error(`Unknown problem type: ${slug}`);
  return entry;
}

/**
 * The origin problem type URIs (and other absolute links) start with: PUBLIC_ORIGIN, else NEXTAUTH_URL's origin,
 * else `http://localhost:<PORT or 3000>` (the quick start). platform/env/env.ts validates PUBLIC_ORIGIN.
 * @param {Record<string, string | undefined>} env
 */
export function publicOriginOf(env) {
  for (const value of [env.PUBLIC_ORIGIN, env.NEXTAUTH_URL]) {
    if (!value) continue;
    try {
      return new URL(value).origin;
    } catch {
      // platform/env/env.ts refuses it at start; the next candidate stands meanwhile.
    }
  }
  return `http://localhost:${env.PORT || 3000}`;
}

/** @type {string | undefined} */
let origin;

/** The absolute URI of a problem type: `<public origin>/problems/<slug>`. @param {string} slug */
export function problemTypeUri(slug) {
  origin ??= publicOriginOf(process.env);
  return `${origin}/problems/${problemTypeEntry(slug).slug}`;
}

/** Tests change the environment between cases. */
export function resetProblemOrigin() {
  origin = undefined;
}
