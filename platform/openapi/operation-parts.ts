import { z } from "zod";
import type { ZodOpenApiResponseObject } from "zod-openapi";
import type { Scope } from "@/platform/auth/scopes";
import type { DeprecationPolicy } from "@/platform/http/deprecation";
import { type ProblemSlug, problemTypeEntry, problemTypeUri } from "@/platform/problems/problem-types.mjs";
import { playerIdSchema, problemSchema } from "@/platform/schemas/common";

/* The pieces every operation of the OpenAPI document shares (features/<name>/ openapi; /*): responses, headers, scopes. */

const EXAMPLE_REQUEST_ID = "0b7d6f0e-6c1a-4a53-9d5e-2f1f2a0c3b4d";

/** A problem body of the registry's type, as the API answers it. */
function problemExample(slug: ProblemSlug) {
  const entry = problemTypeEntry(slug);
  return {
    type: problemTypeUri(slug),
    title: entry.title,
    status: entry.status,
    detail: entry.example,
    request_id: EXAMPLE_REQUEST_ID,
    ...(slug === "invalid-parameters"
      ? { errors: [{ name: "limit", in: "query", detail: "must be an integer between 1 and 100" }] }
      : {}),
  };
}

/** A problem response: the types it can carry (from the registry), each an example and linked by its URI. */
export const problem = (description: string, slugs: readonly ProblemSlug[]) => ({
  description: `${description} Types: ${slugs.map((s) => `[${s}](${problemTypeUri(s)})`).join(", ")}.`,
  content: {
    "application/problem+json": {
      schema: problemSchema,
      examples: Object.fromEntries(slugs.map((s) => [s, { value: problemExample(s) }])),
    },
  },
});

export const requestIdHeader = z.string().meta({
  description:
    "The server's id of this request (a UUID), also in the problem body, the access log and the audit trail. A client's own X-Request-ID is recorded beside it, never taken as the id.",
});
export const rateLimitHeaders = {
  "RateLimit-Policy": z.string().meta({
    description:
      'The caller\'s token bucket (draft-ietf-httpapi-ratelimit-headers): its name, `q` requests at once, refilled in `w` seconds, e.g. `"default";q=600;w=60` (10 per second after a burst of 600).',
  }),
  RateLimit: z.string().meta({
    description:
      'Requests left (`r`) and seconds until the bucket is full again (`t`; with none left, until the next request is allowed), e.g. `"default";r=598;t=1`.',
  }),
  "RateLimit-Limit": z
    .string()
    .meta({ description: "The bucket's size: requests allowed at once (earlier drafts' form)." }),
  "RateLimit-Remaining": z.string().meta({ description: "Requests left in the bucket." }),
  "RateLimit-Reset": z.string().meta({ description: "`t` of RateLimit." }),
};
const etagHeader = z.string().meta({
  description:
    "A weak entity tag of this answer's body as sent (its scope's masking included), e.g. `W/\"q1Nf…\"`: send it back in `If-None-Match` to be answered 304 while the data is unchanged.",
});
/** A JSON read: the ETag, revalidation on every use, the quota and request id. */
export const ok = (description: string, schema: z.ZodType, example?: unknown) => ({
  description,
  headers: z.object({
    "X-Request-ID": requestIdHeader,
    ETag: etagHeader,
    "Cache-Control": z.literal("private, no-store").meta({
      description:
        "Player data: no cache stores it, the browser's included. A client that keeps its own copy (a sync job) revalidates it with its ETag in `If-None-Match`.",
    }),
    ...rateLimitHeaders,
  }),
  content: { "application/json": example === undefined ? { schema } : { schema, example } },
});
const nextLinkHeader = z.string().meta({
  description:
    "The next page (RFC 8288): `</api/v1/…?…>; rel=\"next\"`, a reference relative to the request's URL: the request's own path and query with only the paging parameter changed (`offset`, `cursor` or `after`), every filter and `limit` kept. Absent on the last page: follow it until it is. A deprecated operation adds its own links to the same header.",
});
/** A paged read's 200: `ok` with `Link: <…>; rel="next"` while more pages follow (platform/http/next-link.ts). */
export const paged = <R extends ReturnType<typeof ok>>(response: R): R => ({
  ...response,
  headers: response.headers.extend({ Link: nextLinkHeader.optional() }),
});
/** A JSON read's 304: the caller's copy (its `If-None-Match`) is current. */
const notModified = {
  description:
    "`If-None-Match` named this answer's current ETag: no body, the caller's copy is current. Audited as the read it confirms; free: it does not count against the quota (RateLimit is what it was before the request).",
  headers: z.object({
    "X-Request-ID": requestIdHeader,
    ETag: etagHeader,
    "Cache-Control": z.literal("private, no-store"),
    ...rateLimitHeaders,
  }),
};
/** `If-None-Match`, which every JSON read takes beside X-Session-ID. */
const ifNoneMatchHeader = z.string().optional().meta({
  description:
    'ETags of copies the caller holds (`W/"…"`, a list, or `*`): answered 304 without a body when one is current.',
});
/**
 * Either scheme grants the operation: a bearer token (OpenAPI 3.1 lets its requirement list the scopes) or an
 * OAuth 2.0 client-credentials token with the scope (platform/openapi/security.ts).
 */
export const requires = (scope: Scope): Record<string, string[]>[] => [
  { bearerAuth: [scope] },
  { oauth2: [scope] },
];

/**
 * Declared optional although every request must send it: a typed client (openapi-typescript + openapi-fetch) then
 * sets it once in a middleware instead of on every call (docs/integrations.md). The server still requires it.
 */
export const sessionHeader = z.object({
  "X-Session-ID": z.string().optional().meta({
    description:
      "Caller's session identifier: 1–128 printable ASCII characters. **Every request must carry it**: it is declared optional only so that a typed client can set it once for all calls (openapi-fetch: `client.use({ onRequest })`, see docs/integrations.md). It is recorded with the request (audit trail) but not matched against playerId or a session store; a token naming its session (`sid`) is good for that session id only. A valid token without it (or with a blank or malformed one) is a 400 `invalid-parameters` naming `X-Session-ID`; a missing or rejected token is a 401 whatever this header says.",
  }),
});

/** The request headers of a JSON read: the session, and the ETags the caller holds. */
export const readHeaders = sessionHeader.extend({ "If-None-Match": ifNoneMatchHeader });

const commonErrors = {
  "401": problem(
    "Missing or rejected credentials: no bearer token, a token that does not verify, or one whose `sid` is not the X-Session-ID sent. Sent with `WWW-Authenticate: Bearer`. (A valid token without X-Session-ID is a 400.)",
    ["unauthorized"],
  ),
  "403": problem(
    "The token is valid but lacks the scope this operation needs (`insufficient_scope`); `WWW-Authenticate` names it.",
    ["insufficient-scope"],
  ),
  "405": problem(
    "Only GET (and HEAD) are supported; every other method, OPTIONS and TRACE included, is this problem with `Allow: GET, HEAD` (no CORS: the API is called same-origin or server to server).",
    ["method-not-allowed"],
  ),
  "429": {
    ...problem(
      "This caller's request quota is used up. Wait `Retry-After` seconds (the next token, usually 1 s); the RateLimit headers describe the quota.",
      ["rate-limited"],
    ),
    headers: z.object({ "Retry-After": z.string(), ...rateLimitHeaders }),
  },
  "500": problem("Unexpected failure; the body carries only a request id, the cause is logged.", [
    "internal-error",
  ]),
  "503": problem(
    "The database is unreachable or too slow (statement timeout), reads cannot be audited right now, or (AUTH_MODE=jwt with a JWKS URL) the issuer's key set cannot be fetched; retry after the `Retry-After` seconds.",
    ["service-unavailable"],
  ),
};

export const playerPath = z.object({ playerId: playerIdSchema });

/**
 * An operation's answers: its 200, the 304 of a JSON read (a stream has no ETag to revalidate), the 400 for what
 * `invalid` names, the 404 when the path names a player, and the errors every operation shares.
 */
export const readResponses = (
  success: ZodOpenApiResponseObject,
  invalid: string,
  { player = false, stream = false }: { player?: boolean; stream?: boolean } = {},
) => ({
  "200": success,
  ...(stream ? {} : { "304": notModified }),
  "400": problem(
    `${invalid} Also: X-Session-ID missing, blank or malformed beside a valid token (\`errors\` names the header).`,
    ["invalid-parameters"],
  ),
  ...(player ? { "404": problem("No player with this id.", ["not-found"]) } : {}),
  ...commonErrors,
});

/**
 * What a deprecated operation adds to its description in the document (docs/versioning.md): `deprecated: true`
 * and the dates its answers carry in `Deprecation` and `Sunset` (platform/http/deprecation.ts, the same policy object).
 */
export const deprecatedOperation = (policy: DeprecationPolicy) => ({
  deprecated: true,
  "x-deprecated-since": policy.since,
  ...(policy.sunset ? { "x-sunset": policy.sunset } : {}),
  ...(policy.successor ? { "x-successor": policy.successor } : {}),
});
