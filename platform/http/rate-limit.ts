import { Redis } from "ioredis";
import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import type { RateLimitPolicy } from "./rate-limit-grammar.ts";

/*
 * Per-caller token buckets. Each caller has a bucket of `burst` requests that refills at `perSecond`: a
 * machine client that sends steadily at its rate is never refused, and one that bursts waits for the next
 * token (a fraction of a second at the default rate), not for a fixed window to end (which blocked a burst
 * ~59 s). Buckets live in process memory, or in Redis (REDIS_URL, one atomic Lua script on Redis's own
 * clock) so that all instances share them. Redis is never allowed to take the API down: when it is
 * unreachable or slow, the limiter counts in memory (per instance) until Redis answers again.
 *
 * Not rate-limiter-flexible (11.4): it counts fixed windows only. Measured with a bucket of 20 at 10/s, its
 * BurstyRateLimiter (10/1 s + 10/2 s) refused 9 of 40 requests paced at 10/s after a burst and let 15/s through
 * a hammering client (6 s); a plain window (20/2 s) refused 18-19 of 40. The bucket: 0 refused, 13.2/s.
 */

/** The policy of a fixed allowance per window as a bucket: `max` at once, refilled over `windowSeconds`. */
export function windowPolicy(max: number, windowSeconds: number, name = "default"): RateLimitPolicy {
  return { name, burst: max, perSecond: max / windowSeconds };
}

export interface BucketTake {
  allowed: boolean;
  /** Tokens left in the bucket after this request (fractional: it refills continuously). */
  tokens: number;
}

/** A value now, or later: the memory store answers at once, so the request path need not wait a tick for it. */
export type MaybePromise<T> = T | Promise<T>;

export interface RateLimitStore {
  readonly name: string;
  /** Refills `key`'s bucket for the time passed, then takes one token if there is one. */
  take(key: string, policy: RateLimitPolicy): MaybePromise<BucketTake>;
  /** Gives one token back (never beyond `burst`); the bucket as it is then. */
  release(key: string, policy: RateLimitPolicy): MaybePromise<BucketTake>;
}

/** The bucket's level after refilling from `at` to `now`. */
export function refill(tokens: number, at: number, now: number, policy: RateLimitPolicy): number {
  return Math.min(policy.burst, tokens + (Math.max(0, now - at) * policy.perSecond) / 1000);
}

interface Bucket {
  tokens: number;
  at: number;
  /** When the bucket is full again, after which it may be forgotten (a new one starts full). */
  fullAt: number;
}

export class MemoryStore implements RateLimitStore {
  readonly name = "memory";
  private buckets = new Map<string, Bucket>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  take(key: string, policy: RateLimitPolicy): BucketTake {
    return this.apply(key, policy, 1);
  }

  release(key: string, policy: RateLimitPolicy): BucketTake {
    return this.apply(key, policy, -1);
  }

  private apply(key: string, policy: RateLimitPolicy, cost: number): BucketTake {
    const now = this.now();
    this.sweep(now);
    const bucket = this.buckets.get(key);
    let tokens = bucket ? refill(bucket.tokens, bucket.at, now, policy) : policy.burst;
    const allowed = cost < 0 || tokens >= cost;
    if (allowed) tokens = Math.min(policy.burst, tokens - cost);
    const fullAt = now + ((policy.burst - tokens) * 1000) / policy.perSecond;
    this.buckets.set(key, { tokens, at: now, fullAt });
    return { allowed, tokens };
  }

  /** Drops full buckets now and then (once a minute), so memory follows the callers of the last minutes. */
  private sweep(now: number): void {
    if (now - this.lastSweep < 60_000) return;
    this.lastSweep = now;
    for (const [key, bucket] of this.buckets) if (bucket.fullAt <= now) this.buckets.delete(key);
  }

  get size(): number {
    return this.buckets.size;
  }
}

/*
 * One bucket as a hash {t: tokens, a: ms of the last change}, refilled, taken from (ARGV[3] = 1) or given back
 * (-1) atomically. The clock is Redis's own (TIME), so instances with skewed clocks share one bucket fairly;
 * ARGV[4], when given, replaces it (tests). The key expires once the bucket would be full again.
 * Returns {allowed, tokens as a string} (a Lua number reply would be truncated to an integer).
 */
const TAKE_SCRIPT = `
local now = tonumber(ARGV[4])
if not now then
  local t = redis.call('TIME')
  now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local burst = tonumber(ARGV[1])
local per_ms = tonumber(ARGV[2]) / 1000
local cost = tonumber(ARGV[3])
local state = redis.call('HMGET', KEYS[1], 't', 'a')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if not tokens or not at then
  tokens = burst
  at = now
end
tokens = math.min(burst, tokens + math.max(0, now - at) * per_ms)
local allowed = 0
if cost < 0 or tokens >= cost then
  tokens = math.min(burst, tokens - cost)
  allowed = 1
end
redis.call('HSET', KEYS[1], 't', tostring(tokens), 'a', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil((burst - tokens) / per_ms) + 1000)
return {allowed, tostring(tokens)}`;

type RedisWithBucket = Redis & {
  parTokenBucket(
    key: string,
    burst: number,
    perSecond: number,
    cost: number,
    now: string,
  ): Promise<[number, string]>;
};

export class RedisStore implements RateLimitStore {
  readonly name = "redis";
  private readonly redis: RedisWithBucket;
  /**
   * The client fails fast while disconnected (no offline queue), so without this the first requests of a
   * new instance, sent while it is still connecting, would be counted in memory. Only the first connection
   * is awaited, and only briefly: a Redis that is down still falls back at once afterwards.
   */
  private firstConnection: Promise<void> | null;

  /** `now`: a clock for tests; by default the script reads Redis's own. */
  constructor(
    redis: Redis,
    private readonly prefix: string,
    firstConnectionWaitMs = 1_000,
    private readonly now?: () => number,
  ) {
    redis.defineCommand("parTokenBucket", { numberOfKeys: 1, lua: TAKE_SCRIPT });
    this.redis = redis as RedisWithBucket;
    this.firstConnection =
      redis.status === "ready"
        ? null
        : new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, firstConnectionWaitMs);
            timer.unref?.();
            redis.once("ready", () => {
              clearTimeout(timer);
              resolve();
            });
          }).then(() => {
            this.firstConnection = null;
          });
  }

  /** The Redis key of a caller's bucket. */
  keyOf(key: string): string {
    return `${this.prefix}bucket:${key}`;
  }

  async take(key: string, policy: RateLimitPolicy): Promise<BucketTake> {
    return this.apply(key, policy, 1);
  }

  async release(key: string, policy: RateLimitPolicy): Promise<BucketTake> {
    return this.apply(key, policy, -1);
  }

  private async apply(key: string, policy: RateLimitPolicy, cost: number): Promise<BucketTake> {
    if (this.firstConnection) await this.firstConnection;
    const now = this.now ? String(this.now()) : "";
    const [allowed, tokens] = await this.redis.parTokenBucket(
      this.keyOf(key),
      policy.burst,
      policy.perSecond,
      cost,
      now,
    );
    return { allowed: allowed === 1, tokens: Number(tokens) };
  }
}

/** A Redis client that fails fast instead of queueing commands while disconnected, and keeps reconnecting. */
export function createRedisClient(url: string): Redis {
  const redis = new Redis(url, {
    lazyConnect: false,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
    commandTimeout: 250,
    retryStrategy: (attempt) => Math.min(attempt * 250, 2_000),
  });
  let lastWarning = 0;
  redis.on("error", (error) => {
    // ioredis reports every failed reconnect; one line per 30 s is enough.
    if (Date.now() - lastWarning < 30_000) return;
    lastWarning = Date.now();
    log.warn("redis unavailable; rate limits are counted per instance meanwhile", describeError(error));
  });
  return redis;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /**
   * Seconds until the bucket is full again; with nothing left (a refusal), seconds until the next request is
   * allowed (at least 1): what `Retry-After` says.
   */
  resetSeconds: number;
  /** Which store counted: "redis", or "memory" (configured, or the fallback). */
  store: string;
  policy: RateLimitPolicy;
  headers: Record<string, string>;
}

/** Seconds for an empty bucket to fill: the draft's window `w` of a policy of `q` = burst. */
export function refillSeconds(policy: RateLimitPolicy): number {
  return Math.max(1, Math.ceil(policy.burst / policy.perSecond));
}

/**
 * RateLimit-Policy and RateLimit as in draft-ietf-httpapi-ratelimit-headers (structured fields), plus the
 * earlier drafts' RateLimit-Limit / -Remaining / -Reset that many clients still read. A bucket is described as
 * the draft's quota `q` = burst over `w` = the seconds it takes to refill; `r` is what is left, `t` when it is
 * full again (or, with nothing left, when the next request is allowed).
 */
export function rateLimitHeaders(
  policy: RateLimitPolicy,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  const fixed = policyHeaders(policy);
  return {
    "RateLimit-Policy": fixed.policy,
    RateLimit: `"${policy.name}";r=${remaining};t=${resetSeconds}`,
    "RateLimit-Limit": fixed.limit,
    "RateLimit-Remaining": String(remaining),
    "RateLimit-Reset": String(resetSeconds),
  };
}

/** The two values that depend on the policy alone, written once per policy. */
const fixedHeaders = new WeakMap<RateLimitPolicy, { policy: string; limit: string }>();

function policyHeaders(policy: RateLimitPolicy): { policy: string; limit: string } {
  let fixed = fixedHeaders.get(policy);
  if (!fixed) {
    fixed = {
      policy: `"${policy.name}";q=${policy.burst};w=${refillSeconds(policy)}`,
      limit: String(policy.burst),
    };
    fixedHeaders.set(policy, fixed);
  }
  return fixed;
}

/** The decision for a bucket left at `tokens` after a request that was (or was not) allowed. */
export function decide(policy: RateLimitPolicy, taken: BucketTake, store: string): RateLimitDecision {
  const remaining = Math.max(0, Math.floor(taken.tokens + 1e-9));
  const untilFull = (policy.burst - taken.tokens) / policy.perSecond;
  const untilNext = (1 - taken.tokens) / policy.perSecond;
  const resetSeconds = Math.max(1, Math.ceil((remaining > 0 ? untilFull : untilNext) - 1e-9));
  return {
    allowed: taken.allowed,
    limit: policy.burst,
    remaining,
    resetSeconds,
    store,
    policy,
    headers: rateLimitHeaders(policy, remaining, resetSeconds),
  };
}

export class RateLimiter {
  private readonly fallback: MemoryStore;

  /** `policy`: the default; `policies`: the per-client ones (RATE_LIMITS), chosen by policyFor. */
  constructor(
    readonly policy: RateLimitPolicy,
    private readonly store: RateLimitStore,
    fallback?: MemoryStore,
    readonly policies: ReadonlyMap<string, RateLimitPolicy> = new Map(),
  ) {
    this.fallback = store instanceof MemoryStore ? store : (fallback ?? new MemoryStore());
  }

  /**
   * Counts one request for `key`. Never throws (a failing shared store falls back to memory). The memory store
   * answers at once, without a promise: on the request path every promise costs (Node 20 tracks each for
   * AsyncLocalStorage).
   */
  check(key: string, policy: RateLimitPolicy = this.policy): MaybePromise<RateLimitDecision> {
    const fallback = () => decide(policy, this.fallback.take(key, policy), this.fallback.name);
    let taken: MaybePromise<BucketTake>;
    try {
      taken = this.store.take(key, policy);
    } catch {
      return fallback();
    }
    if (taken instanceof Promise) return taken.then((t) => decide(policy, t, this.store.name), fallback);
    return decide(policy, taken, this.store.name);
  }

  /**
   * Gives back one request counted for `key` that turned out not to count (a sign-in that succeeded). Never
   * throws: a failing shared store is left as it is, and the memory fallback (which may have counted it) released.
   */
  async release(key: string, policy: RateLimitPolicy = this.policy): Promise<void> {
    try {
      await this.store.release(key, policy);
    } catch {
      this.fallback.release(key, policy);
    }
  }

  /**
   * Gives back the token a request `decision` took for `key` (a 304: free), to the store that counted it; the
   * decision as the caller's quota is then (its headers say what was left before the request). null when that
   * store failed meanwhile: the token stays spent. Never throws; the memory store answers at once.
   */
  refund(key: string, decision: RateLimitDecision): MaybePromise<RateLimitDecision | null> {
    const { policy } = decision;
    const store = decision.store === this.store.name ? this.store : this.fallback;
    const after = (given: BucketTake) => decide(policy, { allowed: true, tokens: given.tokens }, store.name);
    let given: MaybePromise<BucketTake>;
    try {
      given = store.release(key, policy);
    } catch {
      return null;
    }
    return given instanceof Promise ? given.then(after, () => null) : after(given);
  }
}
const g = globalThis as unknown as { parRateLimiter?: RateLimiter | null };

/** The process's limiter, built from the environment; null when RATE_LIMIT_MAX is 0 (off). */
export function getRateLimiter(): RateLimiter | null {
  if (g.parRateLimiter === undefined) {
    const env = getEnv();
    const policy = windowPolicy(env.RATE_LIMIT_MAX, env.RATE_LIMIT_WINDOW_SECONDS);
    g.parRateLimiter =
      env.RATE_LIMIT_MAX === 0
        ? null
        : new RateLimiter(
            policy,
            env.REDIS_URL
              ? new RedisStore(createRedisClient(env.REDIS_URL), env.REDIS_KEY_PREFIX)
              : new MemoryStore(),
            undefined,
            env.RATE_LIMITS,
          );
  }
  return g.parRateLimiter;
}

/** Tests swap the limiter (undefined: rebuild from the environment on next use). */
export function setRateLimiter(limiter: RateLimiter | null | undefined): void {
  g.parRateLimiter = limiter;
}
