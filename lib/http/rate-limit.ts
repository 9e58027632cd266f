import { Redis } from "ioredis";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";

/*
 * Per-caller fixed-window rate limiting. Counters live in process memory, or in Redis (REDIS_URL) so that
 * all instances share them. Redis is never allowed to take the API down: when it is unreachable or slow,
 * the limiter counts in memory (per instance) until Redis answers again.
 */

export interface WindowCount {
  /** Requests counted in the current window, this one included. */
  count: number;
  /** Milliseconds until the window ends. */
  resetMs: number;
}

/** A value now, or later: the memory store answers at once, so the request path need not wait a tick for it. */
export type MaybePromise<T> = T | Promise<T>;

export interface RateLimitStore {
  readonly name: string;
  hit(key: string, windowMs: number): MaybePromise<WindowCount>;
  /** Takes one hit back from the current window (none when it has ended); its expiry stays. */
  release(key: string): Promise<void>;
}

export class MemoryStore implements RateLimitStore {
  readonly name = "memory";
  private windows = new Map<string, { count: number; resetAt: number }>();
  private lastSweep = 0;

  constructor(private readonly now: () => number = Date.now) {}

  hit(key: string, windowMs: number): WindowCount {
    const now = this.now();
    this.sweep(now, windowMs);
    let w = this.windows.get(key);
    if (!w || w.resetAt <= now) {
      w = { count: 0, resetAt: now + windowMs };
      this.windows.set(key, w);
    }
    w.count += 1;
    return { count: w.count, resetMs: w.resetAt - now };
  }

  async release(key: string): Promise<void> {
    const w = this.windows.get(key);
    if (w && w.resetAt > this.now() && w.count > 0) w.count -= 1;
  }

  /** Drops ended windows now and then, so memory stays proportional to the callers of one window. */
  private sweep(now: number, windowMs: number): void {
    if (now - this.lastSweep < windowMs) return;
    this.lastSweep = now;
    for (const [key, w] of this.windows) if (w.resetAt <= now) this.windows.delete(key);
  }

  get size(): number {
    return this.windows.size;
  }
}

// INCR, and start the window's expiry on its first hit (or repair a key that lost its TTL).
const HIT_SCRIPT = `
local count = redis.call('INCR', KEYS[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < 0 then
  redis.call('PEXPIRE', KEYS[1], ARGV[1])
  ttl = tonumber(ARGV[1])
end
return {count, ttl}`;

// DECR keeps the key's expiry; a window that has ended is not brought back (with no expiry) at -1.
const RELEASE_SCRIPT = `
if tonumber(redis.call('GET', KEYS[1]) or '0') > 0 then redis.call('DECR', KEYS[1]) end
return 0`;

type RedisWithHit = Redis & {
  parRateLimitHit(key: string, windowMs: number): Promise<[number, number]>;
  parRateLimitRelease(key: string): Promise<number>;
};

export class RedisStore implements RateLimitStore {
  readonly name = "redis";
  private readonly redis: RedisWithHit;
  /**
   * The client fails fast while disconnected (no offline queue), so without this the first requests of a
   * new instance, sent while it is still connecting, would be counted in memory. Only the first connection
   * is awaited, and only briefly: a Redis that is down still falls back at once afterwards.
   */
  private firstConnection: Promise<void> | null;

  constructor(
    redis: Redis,
    private readonly prefix: string,
    firstConnectionWaitMs = 1_000,
  ) {
    redis.defineCommand("parRateLimitHit", { numberOfKeys: 1, lua: HIT_SCRIPT });
    redis.defineCommand("parRateLimitRelease", { numberOfKeys: 1, lua: RELEASE_SCRIPT });
    this.redis = redis as RedisWithHit;
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

  async hit(key: string, windowMs: number): Promise<WindowCount> {
    if (this.firstConnection) await this.firstConnection;
    const [count, ttl] = await this.redis.parRateLimitHit(`${this.prefix}ratelimit:${key}`, windowMs);
    return { count, resetMs: ttl };
  }

  async release(key: string): Promise<void> {
    if (this.firstConnection) await this.firstConnection;
    await this.redis.parRateLimitRelease(`${this.prefix}ratelimit:${key}`);
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

export interface RateLimitPolicy {
  /** Requests allowed per window. */
  max: number;
  windowSeconds: number;
}

export interface RateLimitDecision {
  allowed: boolean;
  limit: number;
  remaining: number;
  /** Seconds until the window ends (at least 1). */
  resetSeconds: number;
  /** Which store counted: "redis", or "memory" (configured, or the fallback). */
  store: string;
  headers: Record<string, string>;
}

const POLICY_NAME = "default";

/**
 * RateLimit-Policy and RateLimit as in draft-ietf-httpapi-ratelimit-headers (structured fields), plus the
 * earlier drafts' RateLimit-Limit / -Remaining / -Reset that many clients still read.
 */
export function rateLimitHeaders(
  policy: RateLimitPolicy,
  remaining: number,
  resetSeconds: number,
): Record<string, string> {
  const fixed = policyHeaders(policy);
  return {
    "RateLimit-Policy": fixed.policy,
    RateLimit: `"${POLICY_NAME}";r=${remaining};t=${resetSeconds}`,
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
      policy: `"${POLICY_NAME}";q=${policy.max};w=${policy.windowSeconds}`,
      limit: String(policy.max),
    };
    fixedHeaders.set(policy, fixed);
  }
  return fixed;
}

export class RateLimiter {
  private readonly fallback: MemoryStore;

  constructor(
    readonly policy: RateLimitPolicy,
    private readonly store: RateLimitStore,
    fallback?: MemoryStore,
  ) {
    this.fallback = store instanceof MemoryStore ? store : (fallback ?? new MemoryStore());
  }

  /**
   * Counts one request for `key`. Never throws (a failing shared store falls back to memory). The memory store
   * answers at once, without a promise: on the request path every promise costs (Node 20 tracks each for
   * AsyncLocalStorage).
   */
  check(key: string): MaybePromise<RateLimitDecision> {
    const windowMs = this.policy.windowSeconds * 1000;
    const fallback = () => this.decide(this.fallback.hit(key, windowMs), this.fallback.name);
    let counted: MaybePromise<WindowCount>;
    try {
      counted = this.store.hit(key, windowMs);
    } catch {
      return fallback();
    }
    if (counted instanceof Promise) return counted.then((c) => this.decide(c, this.store.name), fallback);
    return this.decide(counted, this.store.name);
  }

  private decide(counted: WindowCount, store: string): RateLimitDecision {
    return this.decision(counted, store, counted.count <= this.policy.max);
  }

  /**
   * Takes back one request counted for `key` that turned out not to count (a sign-in that succeeded). Never
   * throws: a failing shared store is left as it is, and the memory fallback (which may have counted it) released.
   */
  async release(key: string): Promise<void> {
    await this.store.release(key).catch(() => this.fallback.release(key));
  }

  private decision(counted: WindowCount, store: string, allowed: boolean): RateLimitDecision {
    const remaining = Math.max(0, this.policy.max - counted.count);
    const resetSeconds = Math.max(1, Math.ceil(counted.resetMs / 1000));
    return {
      allowed,
      limit: this.policy.max,
      remaining,
      resetSeconds,
      store,
      headers: rateLimitHeaders(this.policy, remaining, resetSeconds),
    };
  }
}

const g = globalThis as unknown as { parRateLimiter?: RateLimiter | null };

/** The process's limiter, built from the environment; null when RATE_LIMIT_MAX is 0 (off). */
export function getRateLimiter(): RateLimiter | null {
  if (g.parRateLimiter === undefined) {
    const env = getEnv();
    const policy = { max: env.RATE_LIMIT_MAX, windowSeconds: env.RATE_LIMIT_WINDOW_SECONDS };
    g.parRateLimiter =
      policy.max === 0
        ? null
        : new RateLimiter(
            policy,
            env.REDIS_URL
              ? new RedisStore(createRedisClient(env.REDIS_URL), env.REDIS_KEY_PREFIX)
              : new MemoryStore(),
          );
  }
  return g.parRateLimiter;
}

/** Tests swap the limiter (undefined: rebuild from the environment on next use). */
export function setRateLimiter(limiter: RateLimiter | null | undefined): void {
  g.parRateLimiter = limiter;
}
