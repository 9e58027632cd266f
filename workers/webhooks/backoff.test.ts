import { describe, expect, it } from "vitest";
import { retryDelayMs } from "./backoff.ts";

describe("retryDelayMs", () => {
  const base = { baseMs: 1_000, maxMs: 60_000 };

  it("doubles per attempt between half and all of the exponential delay", () => {
    for (const [attempt, full] of [
      [1, 1_000],
      [2, 2_000],
      [3, 4_000],
      [6, 32_000],
    ] as const) {
      expect(retryDelayMs({ ...base, attempt, random: () => 0 })).toBe(full / 2);
      expect(retryDelayMs({ ...base, attempt, random: () => 0.999_999 })).toBe(
        Math.round(full - full * 0.000_000_5),
      );
    }
  });

  it("is capped by maxMs, even for huge attempt numbers", () => {
    expect(retryDelayMs({ ...base, attempt: 7, random: () => 0.999_999 })).toBeLessThanOrEqual(60_000);
    expect(retryDelayMs({ ...base, attempt: 1_000, random: () => 0 })).toBe(30_000);
  });

  it("spreads retries of deliveries that failed together", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs({ ...base, attempt: 4 })));
    expect(delays.size).toBeGreaterThan(10);
    for (const d of delays) {
      expect(d).toBeGreaterThanOrEqual(4_000);
      expect(d).toBeLessThanOrEqual(8_000);
    }
  });
});
