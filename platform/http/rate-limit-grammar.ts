import { isRole } from "../auth/roles.ts";

/*
 * The RATE_LIMITS grammar, read by the settings (platform/env/env.ts). A leaf on purpose: it imports only the role names
 * (platform/auth/roles.ts, which imports nothing), never the limiter, authentication or the database, which all read
 * the settings themselves (env → policies → api-auth → session-store → db → env was a circle).
 *
 * Per-client quotas: `key=RATE:BURST` entries, comma-separated, RATE requests per second (decimals allowed),
 * BURST the bucket's size. A key names a verified caller: `sub:<token subject>`, `client:<OAuth client id>` (the
 * token's `client_id`, else `azp` claim: a client-credentials job), or `role:<role>`. Example:
 * `client:crm-sync=50:1000,role:support_agent=5:300`. Callers matching none, and every caller whose token is not
 * verified (demo tokens), get the default (RATE_LIMIT_MAX per RATE_LIMIT_WINDOW_SECONDS).
 */

/** A caller's quota: a bucket of `burst` requests refilled at `perSecond` (RATE_LIMITS, platform/env/env.ts). */
export interface RateLimitPolicy {
  /** Named in the RateLimit headers: `default`, or the RATE_LIMITS key that chose it (`role:admin`). */
  name: string;
  burst: number;
  perSecond: number;
}

const ENTRY = /^(sub|client|role):([A-Za-z0-9._@-]{1,128})=(\d+(?:\.\d+)?):(\d+)$/;
const MAX_RATE = 100_000;
const MAX_BURST = 1_000_000;

export interface ParsedRateLimits {
  policies: Map<string, RateLimitPolicy>;
  /** One sentence per bad entry (empty when all are good). */
  errors: string[];
}

/** Reads RATE_LIMITS; every entry that cannot be read is named in `errors` (the environment check fails). */
export function parseRateLimits(text: string | undefined): ParsedRateLimits {
  const policies = new Map<string, RateLimitPolicy>();
  const errors: string[] = [];
  for (const raw of (text ?? "").split(",")) {
    const entry = raw.trim();
    if (!entry) continue;
    const match = ENTRY.exec(entry);
    if (!match) {
      errors.push(`\`${entry}\` is not \`sub:|client:|role:<name>=<requests per second>:<burst>\``);
      continue;
    }
    const [, kind, name, rate, burst] = match as unknown as [string, string, string, string, string];
    const key = `${kind}:${name}`;
    const perSecond = Number(rate);
    const size = Number(burst);
    if (kind === "role" && !isRole(name)) errors.push(`\`${key}\`: no such role`);
    else if (!(perSecond > 0 && perSecond <= MAX_RATE))
      errors.push(`\`${key}\`: rate must be > 0 and ≤ ${MAX_RATE}`);
    else if (!(size >= 1 && size <= MAX_BURST)) errors.push(`\`${key}\`: burst must be 1 to ${MAX_BURST}`);
    else if (policies.has(key)) errors.push(`\`${key}\` is given twice`);
    else policies.set(key, { name: key, perSecond, burst: size });
  }
  return { policies, errors };
}
