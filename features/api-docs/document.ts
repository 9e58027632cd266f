import { createDocument } from "zod-openapi";
import { addSampledExamples } from "@/features/api-docs/sampled-examples";
import { webhookOperations } from "@/features/api-docs/webhooks";
import { auditPaths } from "@/features/audit";
import { changePaths } from "@/features/changes";
import { exportPaths } from "@/features/exports";
import { changeEventSchema, feedEventSchema, livePaths, renewEventSchema } from "@/features/live";
import { activityPaths, playerPaths } from "@/features/players";
import { portfolioPaths } from "@/features/portfolio";
import { bulkTransactionPaths, transactionPaths } from "@/features/transactions";
import { webhookEventPaths } from "@/features/webhook-events";
import { ROLE_SCOPES, ROLES, SCOPE_DESCRIPTIONS, SCOPES } from "@/platform/auth/scopes";
import { type Env, getEnv } from "@/platform/env/env";
import { markExtensibleEnums, WEBHOOK_TYPES_OPEN } from "@/platform/openapi/extensible-enums";
import { securitySchemes } from "@/platform/openapi/security";
import { publicOriginOf } from "@/platform/problems/problem-types.mjs";

/*
 * The served OpenAPI document: its description and components here, the operations in features/<name>/openapi/ (one
 * module per group, sharing platform/openapi/operation-parts.ts). The spread order below is the paths' order in the
 * document.
 */

const SCOPE_TABLE = [
  "| Scope | Grants |",
  "|---|---|",
  ...Object.values(SCOPES).map((s) => `| \`${s}\` | ${SCOPE_DESCRIPTIONS[s]} |`),
].join("\n");
const ROLE_LIST = ROLES.map((r) => `\`${r}\` → ${ROLE_SCOPES[r].map((s) => `\`${s}\``).join(", ")}`).join(
  "; ",
);

/** The document's version: the API's (v1) contract, its minor bumped by additions (docs/versioning.md). */
export const API_VERSION = "1.2.0";

const DESCRIPTION = `
Read-only access to gaming-platform players for back-office callers.

## Authentication
Every operation needs \`Authorization: Bearer <token>\` (scheme case-insensitive) and \`X-Session-ID\`. Machine clients get
the token with the OAuth 2.0 client-credentials grant (the \`oauth2\` scheme: its token URL, the scopes) and send, as
\`X-Session-ID\`, one id per run of the job (it is recorded in the audit trail). \`X-Session-ID\` is declared optional on
each operation only so that a typed client can set it once (a middleware); the server requires it on every request.
Credentials are judged first: no usable token is a 401; a valid token without a usable \`X-Session-ID\` is a 400
(\`/problems/invalid-parameters\`) naming the header.
With \`AUTH_MODE=demo\` (the embedded quick start) any non-empty token is accepted, as in the spec's demo deployment.
With \`AUTH_MODE=jwt\` the token must be a JWT signed with the configured shared secret (HS256/384/512) or a key of the
configured JWKS URL, unexpired (\`exp\` required), and carry the configured issuer and audience.

## Scopes
Access is least privilege. A verified token grants scopes through its OAuth-style \`scope\` claim (space-separated)
and through its role claims \`role\`, \`roles\` or \`groups\` (arrays or space-separated), mapped exactly as at sign-in;
a token granting none can read nothing (403). A token is refused (401) when it lives longer than the server's maximum
lifetime (24 h by default, \`exp − iat\`), is dated ahead, or carries a \`sid\` other than the \`X-Session-ID\` sent.
With a JWKS the issuer and audience are always checked.

${SCOPE_TABLE}

Roles: ${ROLE_LIST}.

In demo mode a token that verifies as one this deployment issued (signed with \`AUTH_JWT_SECRET\`) is read by its
claims; any other token gets \`players:read players:pii\`, as in the spec's demo deployment (not \`audit:read\`).

## Accountability
Every successful profile, transaction list, search, export and audit-trail read is recorded in an append-only audit
trail (who, session, player, operation, parameters, request id, client address); \`audit:read\` pages through it.

## Fair use
Requests are rate limited per caller (the verified token's subject, else the client address) by a token bucket: a
caller may send \`q\` requests at once, and the bucket refills steadily (all of it in \`w\` seconds), so a client
that paces itself at the rate is never refused, and one that bursts waits for the next token (a fraction of a
second at the default), never for a whole window. Every response of a \`/players\` operation carries the caller's
quota in \`RateLimit-Policy\` (\`"<policy>";q=<burst>;w=<seconds to refill>\`) and \`RateLimit\`
(\`r\` = requests left, \`t\` = seconds until the bucket is full again, or with nothing left until the next
request is allowed), plus the older \`RateLimit-Limit\`, \`-Remaining\`, \`-Reset\`; beyond it the answer is 429
(\`/problems/rate-limited\`) with \`Retry-After\`. A 304 counts like the read it confirms. Machine clients
(a client-credentials job) can be given a bucket of their own; prefer batch reads (\`ids=\`) to many single reads.
The export's concurrency cap is a separate 429, \`/problems/too-many-exports\`.

## Decisions on the specification's gaps
- **Presence**: every profile field is always present; unknown values are \`null\` (never omitted).
- **Money**: exact decimals stored as PostgreSQL numeric(20,8), written as JSON numbers with the stored digits
  (no binary floating point on the way out). Transaction amounts are signed from the player's point of view.
- **Time**: UTC ISO 8601 with milliseconds and \`Z\`.
- **KPIs**: \`ltd\` lifetime deposits, \`ltw\` lifetime withdrawals, \`ltnc\` lifetime net cash (ltd − ltw), \`wr\` wagering
  requirement still open on the active bonus. All derive from the player's transactions.
- **Order**: newest first by \`date\`, ties broken by \`id\` descending — a total order, so offset pages never overlap or skip.
- **List parameters**: repeated keys, comma-separated values and the \`name[]\` form are all accepted; values of one
  parameter combine with OR, different parameters with AND. Commas separate values in every form and spaces around
  each value are ignored, so an event name containing a comma cannot be filtered (the data has none). Event names
  otherwise match exactly (case-sensitive).
- **Date bounds**: inclusive. A date-only \`to_date\` includes that whole UTC day; a date-time without offset is UTC.
  \`from_date\` after \`to_date\` is a 400.
- **Paging**: \`limit\` 1–100 (default 20), \`offset\` 0–1,000,000,000 (default 0); \`total\` is exact; an offset past the end
  returns an empty page with the true total. Deep offsets cost more the deeper they go; machine callers reading far
  should follow \`next_cursor\` (keyset paging), which costs the same at any depth.
- **Next page**: every paged answer (the transaction list, the search, the audit trail, the change feed) carries
  \`Link: <…>; rel="next"\` (RFC 8288) while more follow: the request's own path and query with only \`offset\`,
  \`cursor\` or \`after\` changed. Follow it until it is absent.
- **Exact totals at scale**: \`total\` is exact for every filter, also for players with millions of transactions: the
  database keeps per-player daily counts current itself (triggers), so counting reads days, not rows.
- **Strict parameters**: unknown query parameters, empty values and repeated single-value parameters are rejected with
  400, naming each offending parameter, so a typo never silently widens a filter.
- **Unknown player**: 404 for both operations (not an empty list).
- **Errors**: RFC 9457 \`application/problem+json\` with \`type\`, \`title\`, \`status\`, \`detail\`, \`request_id\` and, for invalid
  requests, \`errors[]\` naming each parameter or header. No stack traces or SQL are ever returned. \`type\` is an absolute
  URI, \`<public origin>/problems/<slug>\` (server setting PUBLIC_ORIGIN), a page saying whether a retry can succeed and what
  to do; every problem response below lists its types and has an example of each.
- **Money**: \`format: decimal\` marks exact decimals; parse them losslessly (see each field's description).
- **Open enums**: \`ChangeKind\` grows within v1 (\`x-extensible-enum\`), and so does the list of webhook event types: a
  client must accept a value it does not know (the schema and the Webhooks tag say how to treat one).
- **Versioning**: additions only within v1; a deprecated operation says so in \`Deprecation\`/\`Sunset\` headers at least
  6 months ahead (docs/versioning.md). Machine clients: docs/integrations.md.
- **Conditional reads**: every JSON read answers with a weak \`ETag\` of its body (masking included) and
  \`Cache-Control: private, no-store\` (player data: no cache stores it, the browser's included). A client that keeps
  its own copy sends the tag back in \`If-None-Match\`: 304 without a body while the data is unchanged. A 304 is
  audited as the read it confirms and is free: it does not count against the quota. The export and the live stream
  are \`no-store\` and carry no ETag.
- **Batch reads**: \`GET /players?ids=P1,P2,…\` answers up to 100 full profiles in one request.
`.trim();

/** This deployment's quotas (RATE_LIMIT_MAX per window, RATE_LIMITS' roles; client and subject ones are counted). */
export function quotaDescription(
  env: Pick<Env, "RATE_LIMIT_MAX" | "RATE_LIMIT_WINDOW_SECONDS" | "RATE_LIMITS">,
): string {
  if (env.RATE_LIMIT_MAX === 0) return "\n\nThis deployment: rate limiting is off.";
  const lines = [
    `- default (\`"default"\`): ${env.RATE_LIMIT_MAX} at once, refilled at ${env.RATE_LIMIT_MAX}/${env.RATE_LIMIT_WINDOW_SECONDS} s`,
  ];
  let own = 0;
  for (const [key, policy] of env.RATE_LIMITS) {
    if (key.startsWith("role:"))
      lines.push(`- \`${key}\`: ${policy.burst} at once, refilled at ${policy.perSecond}/s`);
    else own += 1;
  }
  if (own > 0)
    lines.push(
      `- ${own} client${own === 1 ? "" : "s"} with a quota of their own (named in their RateLimit-Policy)`,
    );
  return `\n\nThis deployment's quotas (a verified token's own, else its client's, else its most generous role's, else the default):\n${lines.join("\n")}`;
}

export function buildOpenApiDocument() {
  const env = getEnv();
  const origin = publicOriginOf(process.env);
  const document = createDocument({
    openapi: "3.1.0",
    info: {
      title: "Player Account Read Service",
      version: API_VERSION,
      description: DESCRIPTION.replace(
        "The export's concurrency cap is a separate 429, `/problems/too-many-exports`.",
        (cap) => `${cap}${quotaDescription(getEnv())}`,
      ),
      // Proprietary: the service is not licensed to third parties; integrators follow their contract.
      license: { name: "Proprietary", url: `${origin}/problems` },
      contact: { name: "Player Account Read Service team", url: `${origin}/api/v1/docs` },
    },
    servers: [{ url: "/api/v1", description: "This deployment" }],
    security: [{ bearerAuth: [] }, { oauth2: [] }],
    components: {
      // The live stream's event payloads, referenced by its text/event-stream body's `contentSchema` (live.ts).
      schemas: {
        LiveFeedEvent: feedEventSchema,
        LiveChangeEvent: changeEventSchema,
        LiveRenewEvent: renewEventSchema,
      },
      securitySchemes: securitySchemes(env),
    },
    tags: [
      { name: "Players", description: "Player search, profiles, transactions, exports and activity." },
      { name: "Audit", description: "Who read which player's data, and when." },
      {
        name: "Changes",
        description: "What changed, in commit order: incremental sync for machine clients.",
      },
      {
        name: "Webhooks",
        description: `What this service POSTs to the endpoints an admin configured (the risk service, a CRM), and the read of what it sent (docs/webhooks.md). ${WEBHOOK_TYPES_OPEN}`,
      },
    ],
    paths: {
      ...playerPaths,
      ...transactionPaths,
      ...exportPaths,
      ...activityPaths,
      ...livePaths,
      ...portfolioPaths,
      ...auditPaths,
      ...changePaths,
      ...webhookEventPaths,
      ...bulkTransactionPaths,
    },
    webhooks: webhookOperations,
  });
  markExtensibleEnums(document);
  return addSampledExamples(document as Parameters<typeof addSampledExamples>[0]) as typeof document;
}
