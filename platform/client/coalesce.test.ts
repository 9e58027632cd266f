import { afterEach, describe, expect, it, vi } from "vitest";
import { backoffMs, readFeedState } from "../../features/live/client/live-updates.ts";
import { coalesce } from "./coalesce.ts";

afterEach(() => {
  vi.useRealTimers();
});

describe("coalesce", () => {
  it("runs the first call at once and folds a burst into one trailing call", () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const c = coalesce(fn, 1_000);
    c.trigger();
    expect(fn).toHaveBeenCalledTimes(1);
    for (let i = 0; i < 20; i++) c.trigger();
    expect(fn).toHaveBeenCalledTimes(1);
    vi.advanceTimersByTime(1_000);
    expect(fn).toHaveBeenCalledTimes(2);
    vi.advanceTimersByTime(5_000);
    expect(fn).toHaveBeenCalledTimes(2);
    c.trigger();
    expect(fn).toHaveBeenCalledTimes(3);
  });

  it("calls nothing after cancel", () => {
    vi.useFakeTimers();
    const fn = vi.fn();
    const c = coalesce(fn, 1_000);
    c.trigger();
    c.trigger();
    c.cancel();
    vi.advanceTimersByTime(5_000);
    expect(fn).toHaveBeenCalledTimes(1);
  });
});

describe("live-update helpers", () => {
  it("backs off 1, 2, 4 … 30 s with jitter in the upper half", () => {
    expect([1, 2, 3, 4, 5, 6, 10].map((n) => backoffMs(n, () => 1))).toEqual([
      1_000, 2_000, 4_000, 8_000, 16_000, 30_000, 30_000,
    ]);
    expect(backoffMs(3, () => 0)).toBe(2_000);
  });

  it("reads a feed event's state, and null from anything else", () => {
    expect(readFeedState('{"state":"live"}')).toBe("live");
    expect(readFeedState('{"state":7}')).toBeNull();
    expect(readFeedState("null")).toBeNull();
    expect(readFeedState("nope")).toBeNull();
  });
});
