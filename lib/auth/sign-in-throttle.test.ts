import { describe, expect, it } from "vitest";
import { MemoryStore, RateLimiter } from "@/lib/http/rate-limit";
import { SignInThrottle } from "./sign-in-throttle.ts";

const throttle = (max: number) =>
  new SignInThrottle(new RateLimiter({ max, windowSeconds: 900 }, new MemoryStore()));

describe("sign-in throttle", () => {
  it("blocks an account after its failures, from any address, and leaves other accounts alone", async () => {
    const t = throttle(3);
    for (let i = 0; i < 3; i++) {
      const attempt = { username: "Admin", address: `198.51.100.${i}` };
      expect(await t.retryAfter(attempt)).toBeNull();
      await t.recordFailure(attempt);
    }
    expect(await t.retryAfter({ username: " admin ", address: "198.51.100.77" })).toBeGreaterThan(0);
    expect(await t.retryAfter({ username: "support.agent", address: "198.51.100.77" })).toBeNull();
  });

  it("blocks an address after failures across accounts, its whole IPv6 /64 included", async () => {
    const t = throttle(3);
    for (let i = 0; i < 3; i++) await t.recordFailure({ username: `user${i}`, address: `2001:db8::${i}` });
    expect(await t.retryAfter({ username: "fresh", address: "2001:db8::ffff" })).toBeGreaterThan(0);
    expect(await t.retryAfter({ username: "fresh", address: "2001:db8:1::1" })).toBeNull();
  });

  it("only failures count: checking does not", async () => {
    const t = throttle(1);
    const attempt = { username: "vip.manager", address: "203.0.113.5" };
    for (let i = 0; i < 5; i++) expect(await t.retryAfter(attempt)).toBeNull();
  });
});
