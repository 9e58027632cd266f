import { type ApiPrincipal, authenticate } from "@/platform/auth/api-auth";
import { hasScope, SCOPES } from "@/platform/auth/scopes";
import { insufficientScope, tooManyRequests } from "@/platform/problems/problem";
import type { ApiOptions, RequestScope } from "./api-context.ts";
import { addressRateKey } from "./client-address.ts";
import { getRateLimiter, type RateLimitDecision } from "./rate-limit.ts";
import { policyFor } from "./rate-limit-policies.ts";

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
export function callerKey(principal: ApiPrincipal | undefined, address: string | null): string {
  return principal?.verified ? `sub:${principal.subject}` : addressRateKey(address);
}

/** Counts the request against the caller's quota; throws 429 beyond it. Answers at once for the memory store. */
function enforceRateLimit(scope: RequestScope, principal: ApiPrincipal | undefined): void | Promise<void> {
  const limiter = getRateLimiter();
  if (!limiter) return;
  const policy = policyFor(principal, limiter.policies, limiter.policy);
  const key = callerKey(principal, scope.address);
  const decision = limiter.check(key, policy);
  if (decision instanceof Promise) return decision.then((d) => applyQuota(scope, key, d));
  applyQuota(scope, key, decision);
}

/**
 * A 304 is free (as on GitHub): the token its request took goes back to the caller's bucket, and the answer's
 * quota headers say so. It is still audited. Never throws: a store that failed keeps the token spent.
 */
export function refundQuota(scope: RequestScope): void | Promise<void> {
  const limiter = scope.charge ? getRateLimiter() : null;
  if (!limiter || !scope.charge) return;
  const refunded = limiter.refund(scope.charge.key, scope.charge.decision);
  const apply = (decision: RateLimitDecision | null) => {
    if (decision) scope.rateHeaders = decision.headers;
  };
  if (refunded instanceof Promise) return refunded.then(apply);
  apply(refunded);
}

/** The rate limit for a caller admitted another way (server rendering's caller): 429 beyond the quota. */
export async function chargeQuota(principal: ApiPrincipal, address: string | null): Promise<void> {
  const limiter = getRateLimiter();
  if (!limiter) return;
  const policy = policyFor(principal, limiter.policies, limiter.policy);
  const decision = await limiter.check(callerKey(principal, address), policy);
  if (decision && !decision.allowed) throw tooManyRequests(decision.resetSeconds, decision.headers);
}

function applyQuota(scope: RequestScope, key: string, decision: RateLimitDecision): void {
  scope.rateHeaders = decision.headers;
  if (decision.allowed) scope.charge = { key, decision };
  if (!decision.allowed) throw tooManyRequests(decision.resetSeconds, scope.rateHeaders);
}

/**
 * Who is calling and whether they may: authentication, then the rate limit, then the scope. The rate limit
 * runs before a failed authentication is reported, so requests with bad credentials use up the address's
 * quota too and guessing tokens is limited. A token verified a moment ago and the memory store answer at
 * once: this step then waits for no promise.
 */
export async function admitCaller(scope: RequestScope, options: ApiOptions): Promise<ApiPrincipal> {
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
