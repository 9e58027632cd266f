import { getEnv } from "@/lib/env";
import { addressRateKey } from "@/lib/http/client-address";
import {
  createRedisClient,
  MemoryStore,
  RateLimiter,
  type RateLimitStore,
  RedisStore,
} from "@/lib/http/rate-limit";

/*
 * Password guessing is slowed per account and per client address: only failed sign-ins are counted, so a
 * team behind one address signing in all day is never locked out, while a guesser is stopped after
 * AUTH_SIGNIN_MAX_FAILURES wrong passwords for the window. Counters are shared through Redis when
 * REDIS_URL is set (the API rate limiter's store), else per process.
 */

export interface SignInAttempt {
  username: string;
  address: string | null;
}

export class SignInThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  private keys({ username, address }: SignInAttempt): string[] {
    return [`signin:account:${username.trim().toLowerCase()}`, `signin:${addressRateKey(address)}`];
  }

  /** Seconds until this account and address may try again, or null when they may now. */
  async retryAfter(attempt: SignInAttempt): Promise<number | null> {
    const decisions = await Promise.all(this.keys(attempt).map((key) => this.limiter.peek(key)));
    const blocked = decisions.filter((d) => !d.allowed);
    return blocked.length ? Math.max(...blocked.map((d) => d.resetSeconds)) : null;
  }

  async recordFailure(attempt: SignInAttempt): Promise<void> {
    await Promise.all(this.keys(attempt).map((key) => this.limiter.check(key)));
  }
}

const g = globalThis as unknown as { parSignInThrottle?: SignInThrottle };

/** The process's sign-in throttle, built from the environment on first use. */
export function getSignInThrottle(): SignInThrottle {
  if (!g.parSignInThrottle) {
    const env = getEnv();
    const store: RateLimitStore = env.REDIS_URL
      ? new RedisStore(createRedisClient(env.REDIS_URL), env.REDIS_KEY_PREFIX)
      : new MemoryStore();
    const policy = { max: env.AUTH_SIGNIN_MAX_FAILURES, windowSeconds: env.AUTH_SIGNIN_WINDOW_SECONDS };
    g.parSignInThrottle = new SignInThrottle(new RateLimiter(policy, store));
  }
  return g.parSignInThrottle;
}
