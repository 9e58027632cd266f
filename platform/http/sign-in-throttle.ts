import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { type PasswordAttempt, runWithSignInGuard } from "@/platform/auth/sign-in-guard";
import { getEnv } from "@/platform/env/env";
import { addressRateKey, clientAddress } from "./client-address.ts";
import {
  createRedisClient,
  MemoryStore,
  RateLimiter,
  type RateLimitStore,
  RedisStore,
  windowPolicy,
} from "./rate-limit.ts";

/*
 * Password guessing is slowed per account and per client address: only failed sign-ins count, so a team behind
 * one address signing in all day is never locked out, while a guesser is stopped after AUTH_SIGNIN_MAX_FAILURES
 * wrong passwords for the window. Each attempt is counted as a failure before its password is checked and taken
 * back when it succeeds: checking first and counting after let 40 concurrent guesses all through. Counters are
 * shared through Redis when REDIS_URL is set (the API rate limiter's store), else per process.
 */

export interface SignInAttempt {
  username: string;
  address: string | null;
}

export class SignInThrottle {
  constructor(private readonly limiter: RateLimiter) {}

  private keys({ username, address }: SignInAttempt): string[] {
    // Hashed: the username is the client's, of any length (a 20 MB one was a 20 MB Redis key for the window).
    const account = createHash("sha256").update(username.trim().toLowerCase()).digest("base64url");
    return [`signin:account:${account}`, `signin:${addressRateKey(address)}`];
  }

  /**
   * Counts the attempt as a failure of its account and address: null when its password may be checked, else
   * the seconds until they may try again.
   */
  async reserve(attempt: SignInAttempt): Promise<number | null> {
    const decisions = await Promise.all(this.keys(attempt).map((key) => this.limiter.check(key)));
    const blocked = decisions.filter((d) => !d.allowed);
    return blocked.length ? Math.max(...blocked.map((d) => d.resetSeconds)) : null;
  }

  /** The attempt signed in: it was no failure. */
  async release(attempt: SignInAttempt): Promise<void> {
    await Promise.all(this.keys(attempt).map((key) => this.limiter.release(key)));
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
    const policy = windowPolicy(env.AUTH_SIGNIN_MAX_FAILURES, env.AUTH_SIGNIN_WINDOW_SECONDS, "signin");
    g.parSignInThrottle = new SignInThrottle(new RateLimiter(policy, store));
  }
  return g.parSignInThrottle;
}

/** What the credentials provider tells the sign-in route about the request it runs in. */
interface SignInOutcome {
  retryAfter: number | null;
}

const outcomes = new AsyncLocalStorage<SignInOutcome>();

/** The guard of every password check next-auth makes in a request runSignIn serves (platform/auth/sign-in-guard.ts). */
const throttledByAddress = <U>(attempt: PasswordAttempt, verify: () => Promise<U | null>) =>
  verifyThrottled({ username: attempt.username, address: clientAddress(attempt.headers) }, verify);

/**
 * Runs next-auth for one request, each password check throttled; `retryAfter` is set when the credentials provider
 * refused it as throttled.
 */
export async function runSignIn<T>(
  handle: () => Promise<T>,
): Promise<{ result: T; retryAfter: number | null }> {
  const outcome: SignInOutcome = { retryAfter: null };
  const result = await outcomes.run(outcome, () => runWithSignInGuard(throttledByAddress, handle));
  return { result, retryAfter: outcome.retryAfter };
}

/**
 * The credentials provider's check, for every request that reaches it, on whatever path next-auth served it
 * (`/callback/credentials/x` was not counted): throttled attempts are refused without checking the password.
 */
export async function verifyThrottled<U>(
  attempt: SignInAttempt,
  verify: () => Promise<U | null>,
  throttle = getSignInThrottle(),
): Promise<U | null> {
  const retryAfter = await throttle.reserve(attempt);
  if (retryAfter !== null) {
    const outcome = outcomes.getStore();
    if (outcome) outcome.retryAfter = retryAfter;
    return null;
  }
  const user = await verify();
  if (user) await throttle.release(attempt);
  return user;
}
