import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { createRedisClient, MemoryStore, RateLimiter, RedisStore } from "./rate-limit.ts";

/*
 * Against the real Redis (REDIS_URL or 127.0.0.1:6379). Without one the tests are skipped with a notice,
 * except under CI=true, where Redis is part of the machine and must be there.
 */
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
// Keys of parallel test runs never collide: TEST_DB_PREFIX names this run's databases and Redis keys.
const PREFIX = `${process.env.TEST_DB_PREFIX ?? "par"}:test:${randomUUID()}:`;

async function redisReachable(): Promise<boolean> {
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0, connectTimeout: 1_000 });
  probe.on("error", () => {});
  try {
    await probe.connect();
    await probe.ping();
    return true;
  } catch {
    return false;
  } finally {
    probe.disconnect();
  }
}

const reachable = await redisReachable();
if (!reachable && process.env.CI === "true") throw new Error(`Redis is required under CI (${REDIS_URL})`);
if (!reachable) console.warn(`Redis not reachable at ${REDIS_URL}: skipping the shared rate-limit tests`);

const clients: Redis[] = [];
afterAll(async () => {
  const cleaner = clients[0];
  if (cleaner?.status === "ready") {
    const keys = await cleaner.keys(`${PREFIX}*`);
    if (keys.length) await cleaner.del(...keys);
  }
  for (const c of clients) c.disconnect();
});

function instance(max: number, url = REDIS_URL) {
  const redis = createRedisClient(url);
  clients.push(redis);
  return new RateLimiter({ max, windowSeconds: 30 }, new RedisStore(redis, PREFIX), new MemoryStore());
}

async function ready(redis: Redis | undefined) {
  if (redis && redis.status !== "ready") await new Promise((r) => redis.once("ready", r));
}

describe.skipIf(!reachable)("rate limits shared through Redis", () => {
  it("counts one caller's requests across instances", async () => {
    const a = instance(5);
    const b = instance(5);
    await Promise.all(clients.map(ready));
    const key = `sub:${randomUUID()}`;
    const decisions = [];
    for (let i = 0; i < 8; i++) decisions.push(await (i % 2 ? a : b).check(key));
    expect(decisions.map((d) => d.store)).toEqual(Array(8).fill("redis"));
    expect(decisions.filter((d) => d.allowed)).toHaveLength(5);
    expect(decisions.at(-1)).toMatchObject({ allowed: false, remaining: 0 });
    expect(decisions.at(-1)?.resetSeconds).toBeLessThanOrEqual(30);
  });

  it("keeps the window's expiry in Redis, so counters do not outlive it", async () => {
    const limiter = instance(5);
    await ready(clients.at(-1));
    const key = `ip:${randomUUID()}`;
    await limiter.check(key);
    const ttl = await clients.at(-1)?.pttl(`${PREFIX}ratelimit:${key}`);
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(30_000);
  });

  it("peeks at a shared count without adding to it (the sign-in throttle's check)", async () => {
    const a = instance(2);
    const b = instance(2);
    await Promise.all(clients.map(ready));
    const key = `signin:${randomUUID()}`;
    expect(await a.peek(key)).toMatchObject({ allowed: true, store: "redis" });
    await a.check(key);
    await b.check(key);
    for (let i = 0; i < 3; i++) expect(await b.peek(key)).toMatchObject({ allowed: false, remaining: 0 });
    expect((await a.check(key)).remaining).toBe(0);
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
