import type { ApiPrincipal } from "../auth/api-auth.ts";
import type { RateLimitPolicy } from "./rate-limit-grammar.ts";

/*
 * Which per-client quota (RATE_LIMITS, read by platform/http/rate-limit-grammar.ts) a caller gets. Only a verified
 * token chooses one: callers matching none, and demo tokens, get the default.
 */

/** The OAuth client a token was issued to: `client_id` (RFC 9068), else `azp`. */
function clientIdOf(principal: ApiPrincipal): string | undefined {
  const claims = principal.claims ?? {};
  const id = claims.client_id ?? claims.azp;
  return typeof id === "string" ? id : undefined;
}

/**
 * The caller's policy: its subject's, else its client's, else the most generous of its roles', else the default.
 * Only a verified token chooses: anyone can claim a subject in a demo token.
 */
export function policyFor(
  principal: ApiPrincipal | undefined,
  policies: ReadonlyMap<string, RateLimitPolicy>,
  fallback: RateLimitPolicy,
): RateLimitPolicy {
  if (!principal?.verified || policies.size === 0) return fallback;
  const own = policies.get(`sub:${principal.subject}`);
  if (own) return own;
  const client = clientIdOf(principal);
  const byClient = client === undefined ? undefined : policies.get(`client:${client}`);
  if (byClient) return byClient;
  let best: RateLimitPolicy | undefined;
  for (const role of principal.roles) {
    const policy = policies.get(`role:${role}`);
    if (policy && (!best || policy.perSecond > best.perSecond)) best = policy;
  }
  return best ?? fallback;
}
