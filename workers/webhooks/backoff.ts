/*
 * When a failed delivery is tried again: exponential backoff with "equal jitter" (AWS architecture blog):
 * half of the capped exponential delay, plus a random part of the other half, so retries of many deliveries
 * that failed together spread out instead of arriving together.
 */
export interface BackoffOptions {
  /** Attempts made so far (1 after the first failure). */
  attempt: number;
  baseMs: number;
  maxMs: number;
  /** [0, 1): Math.random unless a test fixes it. */
  random?: () => number;
}

export function retryDelayMs({ attempt, baseMs, maxMs, random = Math.random }: BackoffOptions): number {
  const exponential = Math.min(maxMs, baseMs * 2 ** Math.min(attempt - 1, 30));
  const half = exponential / 2;
  return Math.round(half + random() * half);
}
