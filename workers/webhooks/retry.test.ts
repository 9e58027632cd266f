import { describe, expect, it } from "vitest";
import { parseDispatchConfig } from "./config.ts";
import { nextStep, retrySchedule } from "./retry.ts";

const HOUR = 3_600_000;
const defaults = parseDispatchConfig({ DATABASE_URL: "postgresql://x" });

describe("the retry schedule (docs/webhooks.md)", () => {
  it("with the default settings, retries for at least 72 hours, whatever the jitter", () => {
    for (const random of [() => 0, () => 0.999_999, () => 0.5]) {
      const times = retrySchedule({ policy: defaults, random });
      const last = times.at(-1) ?? 0;
      expect(last).toBeGreaterThanOrEqual(72 * HOUR);
      // …and no longer: the last retry is due when the window ends.
      expect(last).toBe(defaults.WEBHOOK_RETRY_WINDOW_MS);
      // With backoff: the gaps grow, up to the cap, and there are tens of attempts, not thousands.
      const gaps = times.slice(1).map((t, i) => t - (times[i] ?? 0));
      for (const gap of gaps) expect(gap).toBeLessThanOrEqual(defaults.WEBHOOK_RETRY_MAX_MS);
      expect(gaps[1]).toBeGreaterThanOrEqual(gaps[0] ?? 0);
      expect(times.length).toBeGreaterThan(12);
      expect(times.length).toBeLessThan(60);
    }
  });

  it("the defaults: a 72-hour window, no bound on attempts, a 6-hour cap", () => {
    expect(defaults.WEBHOOK_RETRY_WINDOW_MS).toBe(72 * HOUR);
    expect(defaults.WEBHOOK_MAX_ATTEMPTS).toBeUndefined();
    expect(defaults.WEBHOOK_RETRY_MAX_MS).toBe(6 * HOUR);
  });

  it("a failure is retried inside the window and failed once the window is over", () => {
    const start = new Date("2026-12-01T00:00:00.000Z");
    const at = (ms: number) => new Date(start.getTime() + ms);
    const base = { policy: defaults, ok: false, attempts: 20, retryStartedAt: start, random: () => 0 };
    const inside = nextStep({ ...base, now: at(71 * HOUR) });
    expect(inside.status).toBe("pending");
    // Never planned past the window's end: the last try is at 72 h exactly.
    expect(inside.nextAttemptAt?.getTime()).toBe(at(72 * HOUR).getTime());
    expect(nextStep({ ...base, now: at(72 * HOUR) })).toEqual({ status: "failed", nextAttemptAt: null });
    expect(nextStep({ ...base, ok: true, now: at(80 * HOUR) })).toEqual({
      status: "delivered",
      nextAttemptAt: null,
    });
    expect(nextStep({ ...base, attempts: 1, refused: true, now: start }).status).toBe("failed");
  });

  it("WEBHOOK_MAX_ATTEMPTS, when set, ends the retries earlier", () => {
    const policy = { ...defaults, WEBHOOK_MAX_ATTEMPTS: 5 };
    expect(retrySchedule({ policy, random: () => 0 })).toHaveLength(5);
  });
});
