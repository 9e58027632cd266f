import { describe, expect, it } from "vitest";
import { MemoryStore, RateLimiter, type RateLimitStore, rateLimitHeaders } from "./rate-limit.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe("rate limiting", () => {
  it("allows max requests per window per key, then refuses until the window ends", async () => {
    const c = clock();
    const limiter = new RateLimiter({ max: 3, windowSeconds: 10 }, new MemoryStore(c.now));
    const results = [];
    for (let i = 0; i < 5; i++) results.push(await limiter.check("ip:1"));
    expect(results.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(results.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect((await limiter.check("ip:2")).allowed).toBe(true); // another caller is not affected

    c.advance(4_000);
    const blocked = await limiter.check("ip:1");
    expect(blocked).toMatchObject({ allowed: false, resetSeconds: 6 });
    c.advance(6_000);
    expect(await limiter.check("ip:1")).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 });
  });

  it("forgets ended windows so memory follows the active callers", async () => {
    const c = clock();
    const store = new MemoryStore(c.now);
    const limiter = new RateLimiter({ max: 1, windowSeconds: 1 }, store);
    for (let i = 0; i < 100; i++) await limiter.check(`ip:${i}`);
    c.advance(2_000);
    await limiter.check("ip:new");
    expect(store.size).toBe(1);
  });

  it("falls back to counting in memory when the shared store fails, and never throws", async () => {
    const broken: RateLimitStore = {
      name: "redis",
      hit: () => Promise.reject(new Error("Connection is closed.")),
      release: () => Promise.reject(new Error("Connection is closed.")),
    };
    const limiter = new RateLimiter({ max: 2, windowSeconds: 60 }, broken);
    const results = [await limiter.check("k"), await limiter.check("k"), await limiter.check("k")];
    expect(results.map((r) => [r.allowed, r.store])).toEqual([
      [true, "memory"],
      [true, "memory"],
      [false, "memory"],
    ]);
  });

  it("answers at once, without a promise, from the memory store; a store that throws at once falls back too", () => {
    const limiter = new RateLimiter({ max: 1, windowSeconds: 60 }, new MemoryStore());
    const first = limiter.check("k");
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toMatchObject({ allowed: true, store: "memory" });
    expect(limiter.check("k")).toMatchObject({ allowed: false });
    const throwing: RateLimitStore = {
      name: "redis",
      hit: () => {
        throw new Error("not connected");
      },
      release: () => Promise.reject(new Error("not connected")),
    };
    expect(new RateLimiter({ max: 1, windowSeconds: 60 }, throwing).check("k")).toMatchObject({
      allowed: true,
      store: "memory",
    });
  });

  it("takes back a released hit within its window, never below zero, never after it ended", async () => {
    const c = clock();
    const limiter = new RateLimiter({ max: 2, windowSeconds: 10 }, new MemoryStore(c.now));
    await limiter.check("k");
    await limiter.check("k");
    await limiter.release("k");
    expect(await limiter.check("k")).toMatchObject({ allowed: true, remaining: 0 });
    await limiter.release("fresh");
    expect(await limiter.check("fresh")).toMatchObject({ remaining: 1 });
    c.advance(10_000);
    await limiter.release("k");
    expect(await limiter.check("k")).toMatchObject({ remaining: 1, resetSeconds: 10 });
  });

  it("describes the quota in the IETF draft's structured fields and the earlier trio", () => {
    expect(rateLimitHeaders({ max: 100, windowSeconds: 60 }, 42, 17)).toEqual({
      "RateLimit-Policy": '"default";q=100;w=60',
      RateLimit: '"default";r=42;t=17',
      "RateLimit-Limit": "100",
      "RateLimit-Remaining": "42",
      "RateLimit-Reset": "17",
    });
  });
});
