import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, describe, expect, it } from "vitest";
import { redisReachable, TEST_REDIS_URL, testRedisPrefix } from "@/test/support/test-redis";
import { createRedisClient, MemoryStore, RateLimiter, RedisStore, windowPolicy } from "./rate-limit.ts";
import { runSignIn, SignInThrottle, verifyThrottled } from "./sign-in-throttle.ts";

const throttle = (max: number) =>
  new SignInThrottle(new RateLimiter(windowPolicy(max, 900), new MemoryStore()));

/** A password check that takes a while, as scrypt does, and counts how often it ran. */
function slowCheck(succeeds: boolean) {
  const check = async () => {
    check.calls += 1;
    await sleep(20);
    return succeeds ? { id: "u" } : null;
  };
  check.calls = 0;
  return check;
}

describe("sign-in throttle", () => {
  it("blocks an account after its failures, from any address, and leaves other accounts alone", async () => {
    const t = throttle(3);
    for (let i = 0; i < 3; i++)
      expect(await t.reserve({ username: "Admin", address: `198.51.100.${i}` })).toBeNull();
    expect(await t.reserve({ username: " admin ", address: "198.51.100.77" })).toBeGreaterThan(0);
    expect(await t.reserve({ username: "support.agent", address: "198.51.100.78" })).toBeNull();
  });

  it("blocks an address after failures across accounts, its whole IPv6 /64 included", async () => {
    const t = throttle(3);
    for (let i = 0; i < 3; i++) await t.reserve({ username: `user${i}`, address: `2001:db8::${i}` });
    expect(await t.reserve({ username: "fresh", address: "2001:db8::ffff" })).toBeGreaterThan(0);
    expect(await t.reserve({ username: "fresh", address: "2001:db8:1::1" })).toBeNull();
  });

  it("only failures count: a successful sign-in takes its reservation back", async () => {
    const t = throttle(1);
    const attempt = { username: "vip.manager", address: "203.0.113.5" };
    for (let i = 0; i < 5; i++)
      expect(await verifyThrottled(attempt, slowCheck(true), t)).toEqual({ id: "u" });
  });

  it("40 concurrent wrong passwords: only the allowed number is checked, the rest are refused unchecked", async () => {
    const t = throttle(10);
    const check = slowCheck(false);
    const outcomes = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        runSignIn(() => verifyThrottled({ username: "admin", address: `198.51.100.${i}` }, check, t)),
      ),
    );
    expect(check.calls).toBe(10);
    expect(outcomes.filter((o) => o.retryAfter !== null)).toHaveLength(30);
    expect(outcomes.every((o) => o.result === null)).toBe(true);
  });
});

const reachable = await redisReachable();

describe.skipIf(!reachable)("sign-in throttle keys in Redis", () => {
  const redis = createRedisClient(TEST_REDIS_URL);
  const prefix = testRedisPrefix();
  afterAll(async () => {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
    redis.disconnect();
  });

  it("are bounded whatever the username's length (a 20 MB one was a 20 MB key for 15 minutes)", async () => {
    const t = new SignInThrottle(new RateLimiter(windowPolicy(10, 900), new RedisStore(redis, prefix)));
    await t.reserve({ username: "u".repeat(1_000_000), address: "192.0.2.1" });
    await t.reserve({ username: "U".repeat(1_000_000), address: "192.0.2.1" });
    const keys = await redis.keys(`${prefix}*`);
    expect(keys).toHaveLength(2); // the account (one, case-insensitively) and the address
    for (const key of keys) expect(key.length - prefix.length).toBeLessThan(80);
    const [account] = keys.filter((k) => k.includes(":account:"));
    expect(Number(await redis.hget(account ?? "", "t"))).toBeCloseTo(8, 2);
  });
});
