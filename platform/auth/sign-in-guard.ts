import { AsyncLocalStorage } from "node:async_hooks";

/*
 * Every password check runs under the guard of the route that serves the sign-in: the HTTP layer throttles it by
 * account and client address (platform/http/sign-in-throttle.ts, runSignIn, around next-auth). The guard is handed in
 * here so that platform/auth needs neither client addresses nor rate limiters from platform/http (which uses platform/auth).
 */

/** A password sign-in: the username as typed and the headers of the request it came in. */
export interface PasswordAttempt {
  username: string;
  headers: Headers;
}

/** Runs `verify` (the password check) or refuses the attempt (null) without running it. */
export type SignInGuard = <U>(attempt: PasswordAttempt, verify: () => Promise<U | null>) => Promise<U | null>;

const guards = new AsyncLocalStorage<SignInGuard>();

/** Runs `handle` (next-auth serving one request) with `guard` around each password check it makes. */
export function runWithSignInGuard<T>(guard: SignInGuard, handle: () => Promise<T>): Promise<T> {
  return guards.run(guard, handle);
}

/**
 * The credentials provider's password check, under the current request's guard. Outside one it throws: an
 * unthrottled password check is never made, whichever caller reached the provider.
 */
export function guardedPasswordCheck<U>(
  attempt: PasswordAttempt,
  verify: () => Promise<U | null>,
): Promise<U | null> {
  const guard = guards.getStore();
  if (!guard) throw new Error("a password check ran outside the sign-in route's guard (runSignIn)");
  return guard(attempt, verify);
}
