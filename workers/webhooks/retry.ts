import { retryDelayMs } from "./backoff.ts";

/*
 * What follows an attempt (docs/webhooks.md): a 2xx is delivered; a failure is retried after the backoff delay as
 * long as the retry window (WEBHOOK_RETRY_WINDOW_MS, 72 h by default, counted from the delivery's first attempt)
 * is not over; the last retry is due exactly when the window ends, so a receiver down for up to the whole window
 * still gets the event. Then, or after WEBHOOK_MAX_ATTEMPTS when that is set, the delivery is `failed` and its
 * endpoint is marked failing. A pure function of its inputs: the clock is an argument.
 */

export interface RetryPolicy {
  WEBHOOK_RETRY_BASE_MS: number;
  WEBHOOK_RETRY_MAX_MS: number;
  WEBHOOK_RETRY_WINDOW_MS: number;
  /** An optional bound on attempts (unset: only the window counts). */
  WEBHOOK_MAX_ATTEMPTS?: number | undefined;
}

export interface NextStepOptions {
  policy: RetryPolicy;
  /** Whether this attempt succeeded (a 2xx). */
  ok: boolean;
  /** A URL the dispatcher refuses: never retried. */
  refused?: boolean;
  /** Attempts made, this one included. */
  attempts: number;
  /** When the delivery's first attempt was made (this one's time for the first). */
  retryStartedAt: Date;
  /** This attempt's time. */
  now: Date;
  random?: () => number;
}

export type NextStep =
  | { status: "delivered"; nextAttemptAt: null }
  | { status: "pending"; nextAttemptAt: Date }
  | { status: "failed"; nextAttemptAt: null };

export function nextStep(options: NextStepOptions): NextStep {
  const { policy, attempts, now } = options;
  if (options.ok) return { status: "delivered", nextAttemptAt: null };
  if (options.refused) return { status: "failed", nextAttemptAt: null };
  if (policy.WEBHOOK_MAX_ATTEMPTS !== undefined && attempts >= policy.WEBHOOK_MAX_ATTEMPTS)
    return { status: "failed", nextAttemptAt: null };
  const windowEnds = options.retryStartedAt.getTime() + policy.WEBHOOK_RETRY_WINDOW_MS;
  if (now.getTime() >= windowEnds) return { status: "failed", nextAttemptAt: null };
  const delay = retryDelayMs({
    attempt: attempts,
    baseMs: policy.WEBHOOK_RETRY_BASE_MS,
    maxMs: policy.WEBHOOK_RETRY_MAX_MS,
    random: options.random,
  });
  return { status: "pending", nextAttemptAt: new Date(Math.min(now.getTime() + delay, windowEnds)) };
}

export interface RetryScheduleOptions {
  policy: RetryPolicy;
  /** The first attempt's time (epoch ms). */
  start?: number;
  random?: () => number;
}

/**
 * The times (ms after the first attempt) of every attempt of a delivery that always fails, the first one at 0:
 * what the settings in `policy` give (docs/webhooks.md's table is computed from it).
 */
export function retrySchedule({ policy, start = 0, random }: RetryScheduleOptions): number[] {
  const times = [0];
  const startedAt = new Date(start);
  for (;;) {
    const now = new Date(start + (times.at(-1) ?? 0));
    const step = nextStep({
      policy,
      ok: false,
      attempts: times.length,
      retryStartedAt: startedAt,
      now,
      random,
    });
    if (step.status !== "pending") return times;
    times.push(step.nextAttemptAt.getTime() - start);
  }
}
