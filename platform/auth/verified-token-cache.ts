import type { JWTPayload } from "jose";

/**
 * Tokens whose signature and claims were verified a moment ago. A caller sends the same token with every
 * request for its whole lifetime; checking its signature again each time cost ~8% of a profile read's CPU
 * (docs/performance.md). Only tokens that passed every check are kept, keyed by the whole token string, and each
 * for at most `maxAgeMs` and never past its own `exp` (plus the clock tolerance the check allows), so a
 * cached answer is the answer a fresh check would give, except that a key withdrawn from a JWKS takes up to
 * `maxAgeMs` to stop accepting the tokens it signed. Session binding, scopes and the rate limit are applied on
 * every request, cached or not. The oldest entries are dropped beyond `maxEntries`: a flood of tokens can only
 * grow it with tokens that verify.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { payload: JWTPayload; until: number }>();

  constructor(
    private readonly options: { maxEntries: number; maxAgeMs: number; clockToleranceSeconds: number },
  ) {}

  /** The verified claims of `token`, or undefined when it is not (or no longer) cached. */
  get(token: string, now = Date.now()): JWTPayload | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (now < entry.until) return entry.payload;
    this.entries.delete(token);
    return undefined;
  }

  /** Remembers a token that has just passed verification. */
  set(token: string, payload: JWTPayload, now = Date.now()): void {
    const expires =
      typeof payload.exp === "number"
        ? (payload.exp + this.options.clockToleranceSeconds) * 1000
        : Number.POSITIVE_INFINITY;
    const until = Math.min(now + this.options.maxAgeMs, expires);
    if (until <= now) return;
    this.entries.delete(token);
    // Shared by every request that sends the token: nothing may change it.
    this.entries.set(token, { payload: deepFreeze(payload), until });
    while (this.entries.size > this.options.maxEntries) {
      const oldest = this.entries.keys().next().value;
      if (oldest === undefined) break;
      this.entries.delete(oldest);
    }
  }

  get size(): number {
    return this.entries.size;
  }
}

function deepFreeze<T>(value: T): T {
  if (value && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value)) deepFreeze(item);
  }
  return value;
}
