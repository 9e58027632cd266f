import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { redisReachable, TEST_REDIS_URL, testRedisPrefix } from "@/test/support/test-redis";
import { createRedisClient, MemoryStore, RateLimiter, RedisStore, windowPolicy } from "./rate-limit.ts";

/*
 * Against the real Redis (REDIS_URL or 127.0.0.1:6379). Without one the tests are skipped with a notice,
 * except under CI=true, where Redis is part of the machine and must be there.
 */
const REDIS_URL = TEST_REDIS_URL;
const PREFIX = testRedisPrefix();
const reachable = await redisReachable();

const clients: Redis[] = [];
afterAll(async () => {
  const cleaner = clients[0];
  if (cleaner?.status === "ready") {
    const keys = await cleaner.keys(`${PREFIX}*`);
    if (keys.length) await cleaner.del(...keys);
  }
  for (const c of clients) c.disconnect();
});

function instance(max: number, url = REDIS_URL, now?: () => number) {
  const redis = createRedisClient(url);
  clients.push(redis);
  return new RateLimiter(windowPolicy(max, 30), new RedisStore(redis, PREFIX, 1_000, now), new MemoryStore());
}

async function ready(redis: Redis | undefined) {
  if (redis && redis.status !== "ready") await new Promise((r) => redis.once("ready", r));
}

const bucketKey = (key: string) => `${PREFIX}bucket:${key}`;

describe.skipIf(!reachable)("token buckets shared through Redis", () => {
  it("counts one caller's requests across instances", async () => {
    const a = instance(5);
    const b = instance(5);
    await Promise.all(clients.map(ready));
    const key = `sub:${randomUUID()}`;
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await (i % 2 ? a : b).check(key));
    expect(decisions.map((d) => d.store)).toEqual(Array(8).fill("redis"));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    // 5 per 30 s: the next token is 6 s away, not the end of a 30 s window.
    expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
    expect(decisions.at(-1)?.resetSeconds).toBeLessThanOrEqual(6);
  });

  it("refills on a given clock, atomically under concurrent takes", async () => {
    let now = 1_000_000_000;
    const a = instance(10, REDIS_URL, () => now);
    const b = instance(10, REDIS_URL, () => now);
    await Promise.all(clients.map(ready));
    const key = `sub:${randomUUID()}`;
    const burst = await Promise.all(Array.from({ length: 30 }, (_, i) => (i % 2 ? a : b).check(key)));
    expect(burst.filter((d) => d.allowed)).toHaveLength(10);
    now += 6_000; // 10 per 30 s: 2 tokens back
    const later = await Promise.all(Array.from({ length: 5 }, () => a.check(key)));
    expect(later.filter((d) => d.allowed)).toHaveLength(2);
    now += 3_600_000;
    expect(await b.check(key)).toMatchObject({ allowed: true, remaining: 9 });
  });

  it("expires a bucket once it would be full again, so keys do not outlive their use", async () => {
    const limiter = instance(5);
    await ready(clients.at(-1));
    const key = `ip:${randomUUID()}`;
    await limiter.check(key);
    const ttl = await clients.at(-1)?.pttl(bucketKey(key));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(6_000 + 1_000);
  });

  it("gives a request back across instances, never beyond the burst", async () => {
    const a = instance(2);
    const b = instance(2);
    await Promise.all(clients.map(ready));
    const key = `signin:${randomUUID()}`;
    await a.check(key);
    await b.check(key);
    await a.release(key);
    expect(await b.check(key)).toMatchObject({ allowed: true, remaining: 0, store: "redis" });
    const fresh = `signin:${randomUUID()}`;
    await a.release(fresh);
    expect(await b.check(fresh)).toMatchObject({ allowed: true, remaining: 1 });
  });
});

describe.skipIf(!reachable)("refunds through Redis", () => {
  it("gives a 304's token back in the shared bucket: another instance sees the quota unchanged", async () => {
    // A still clock: 600 per 30 s would otherwise refill tokens between the requests.
    const now = () => 2_000_000_000;
    const a = instance(600, REDIS_URL, now);
    const b = instance(600, REDIS_URL, now);
    await Promise.all(clients.map(ready));
    const key = `sub:${randomUUID()}`;
    const before = (await a.check(key)).remaining;
    for (let i = 0; i < 40; i++) {
      const taken = await (i % 2 ? a : b).check(key);
      expect(taken.store).toBe("redis");
      const refunded = await (i % 2 ? a : b).refund(key, taken);
      expect(refunded).toMatchObject({ allowed: true, store: "redis", remaining: before });
    }
    expect((await b.check(key)).remaining).toBe(before - 1);
  });
});

describe("Redis unavailable", () => {
  it("falls back to per-instance counting promptly instead of failing requests", async () => {
    // Nothing listens on this port: connection refused.
    const limiter = instance(2, "redis://127.0.0.1:1");
    const started = performance.now();
    const decisions = [await limiter.check("k"), await limiter.check("k"), await limiter.check("k")];
    // A hang guard, not a performance claim: refused connections must not wait for timeouts.
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(decisions.map((d) => [d.allowed, d.store])).toEqual([
      [true, "memory"],
      [true, "memory"],
      [false, "memory"],
    ]);
  });
});
