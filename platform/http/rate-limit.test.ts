import { describe, expect, it } from "vitest";
import type { ApiPrincipal } from "@/platform/auth/api-auth";
import {
  MemoryStore,
  RateLimiter,
  type RateLimitStore,
  rateLimitHeaders,
  windowPolicy,
} from "./rate-limit.ts";
import { parseRateLimits, type RateLimitPolicy } from "./rate-limit-grammar.ts";
import { policyFor } from "./rate-limit-policies.ts";

function clock(start = 1_000_000) {
  let now = start;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

const bucket = (burst: number, perSecond: number, name = "default"): RateLimitPolicy => ({
  name,
  burst,
  perSecond,
});

describe("token bucket", () => {
  it("allows a burst, then one request per refilled token: never a whole window's block", async () => {
    const c = clock();
    const limiter = new RateLimiter(bucket(3, 1), new MemoryStore(c.now));
    const results = [];
    for (let i = 0; i < 5; i++) results.push(limiter.check("ip:1") as ReturnType<RateLimiter["check"]>);
    const decided = await Promise.all(results);
    expect(decided.map((r) => r.allowed)).toEqual([true, true, true, false, false]);
    expect(decided.map((r) => r.remaining)).toEqual([2, 1, 0, 0, 0]);
    expect(decided[4]?.resetSeconds).toBe(1); // the next token, not the end of a window
    expect((await limiter.check("ip:2")).allowed).toBe(true); // another caller is not affected

    c.advance(999);
    expect(await limiter.check("ip:1")).toMatchObject({ allowed: false, resetSeconds: 1 });
    c.advance(1);
    expect(await limiter.check("ip:1")).toMatchObject({ allowed: true, remaining: 0 });
  });

  it("serves a steady caller at its rate without a refusal, however long it runs", async () => {
    const c = clock();
    const limiter = new RateLimiter(windowPolicy(600, 60), new MemoryStore(c.now));
    for (let i = 0; i < 600; i++) await limiter.check("job");
    // The burst is spent; from now on one request every 100 ms (10/s) is always allowed.
    for (let i = 0; i < 5_000; i++) {
      c.advance(100);
      expect((await limiter.check("job")).allowed).toBe(true);
    }
    expect((await limiter.check("job")).allowed).toBe(false);
  });

  it("refills up to the burst and no further, and says when it is full again", async () => {
    const c = clock();
    const limiter = new RateLimiter(bucket(10, 2), new MemoryStore(c.now));
    for (let i = 0; i < 10; i++) await limiter.check("k");
    c.advance(2_000); // 4 tokens back
    expect(await limiter.check("k")).toMatchObject({ allowed: true, remaining: 3, resetSeconds: 4 });
    c.advance(3_600_000);
    expect(await limiter.check("k")).toMatchObject({ remaining: 9, resetSeconds: 1 });
  });

  it("forgets full buckets so memory follows the active callers", async () => {
    const c = clock();
    const store = new MemoryStore(c.now);
    const limiter = new RateLimiter(bucket(1, 1), store);
    for (let i = 0; i < 100; i++) await limiter.check(`ip:${i}`);
    c.advance(61_000);
    await limiter.check("ip:new");
    expect(store.size).toBe(1);
  });

  it("falls back to counting in memory when the shared store fails, and never throws", async () => {
    const broken: RateLimitStore = {
      name: "redis",
      take: () => Promise.reject(new Error("Connection is closed.")),
      release: () => Promise.reject(new Error("Connection is closed.")),
    };
    const limiter = new RateLimiter(bucket(2, 0.1), broken);
    const results = [await limiter.check("k"), await limiter.check("k"), await limiter.check("k")];
    expect(results.map((r) => [r.allowed, r.store])).toEqual([
      [true, "memory"],
      [true, "memory"],
      [false, "memory"],
    ]);
  });

  it("answers at once, without a promise, from the memory store; a store that throws at once falls back too", () => {
    const limiter = new RateLimiter(bucket(1, 0.01), new MemoryStore());
    const first = limiter.check("k");
    expect(first).not.toBeInstanceOf(Promise);
    expect(first).toMatchObject({ allowed: true, store: "memory" });
    expect(limiter.check("k")).toMatchObject({ allowed: false });
    const throwing: RateLimitStore = {
      name: "redis",
      take: () => {
        throw new Error("not connected");
      },
      release: () => Promise.reject(new Error("not connected")),
    };
    expect(new RateLimiter(bucket(1, 0.01), throwing).check("k")).toMatchObject({
      allowed: true,
      store: "memory",
    });
  });

  it("gives a released request back, never beyond the burst", async () => {
    const c = clock();
    const limiter = new RateLimiter(bucket(2, 0.1), new MemoryStore(c.now));
    await limiter.check("k");
    await limiter.check("k");
    await limiter.release("k");
    expect(await limiter.check("k")).toMatchObject({ allowed: true, remaining: 0 });
    await limiter.release("fresh");
    expect(await limiter.check("fresh")).toMatchObject({ remaining: 1 });
  });

  it("refunds a request's token (a 304): the quota reads as it did before the request", async () => {
    const c = clock();
    const limiter = new RateLimiter(bucket(600, 0.01), new MemoryStore(c.now));
    const first = await limiter.check("k");
    expect(first.remaining).toBe(599);
    for (let i = 0; i < 40; i++) {
      const taken = await limiter.check("k");
      expect(taken.remaining).toBe(598);
      const refunded = await limiter.refund("k", taken);
      expect(refunded).toMatchObject({ allowed: true, remaining: 599, store: "memory" });
      expect(refunded?.headers["RateLimit-Remaining"]).toBe("599");
    }
    expect(await limiter.check("k")).toMatchObject({ remaining: 598 });
  });

  it("refunds to the store that counted: the memory fallback when the shared store had failed", async () => {
    const failing: RateLimitStore = {
      name: "redis",
      take: () => Promise.reject(new Error("not connected")),
      release: () => Promise.reject(new Error("not connected")),
    };
    const fallback = new MemoryStore();
    const limiter = new RateLimiter(bucket(5, 0.01), failing, fallback);
    const taken = await limiter.check("k");
    expect(taken).toMatchObject({ store: "memory", remaining: 4 });
    expect(await limiter.refund("k", taken)).toMatchObject({ store: "memory", remaining: 5 });
    // The shared store failing on the refund keeps the token spent, without an error.
    expect(await limiter.refund("k", { ...taken, store: "redis" })).toBeNull();
  });

  it("counts each caller against its own policy", async () => {
    const c = clock();
    const limiter = new RateLimiter(bucket(1, 1), new MemoryStore(c.now));
    const job = bucket(5, 50, "client:crm");
    const decisions = [];
    for (let i = 0; i < 5; i++) decisions.push(await limiter.check("sub:crm", job));
    expect(decisions.every((d) => d.allowed)).toBe(true);
    expect(decisions[0]?.headers["RateLimit-Policy"]).toBe('"client:crm";q=5;w=1');
    expect((await limiter.check("sub:crm", job)).allowed).toBe(false);
  });

  it("describes the bucket in the IETF draft's structured fields and the earlier trio", () => {
    expect(rateLimitHeaders(windowPolicy(600, 60), 42, 17)).toEqual({
      "RateLimit-Policy": '"default";q=600;w=60',
      RateLimit: '"default";r=42;t=17',
      "RateLimit-Limit": "600",
      "RateLimit-Remaining": "42",
      "RateLimit-Reset": "17",
    });
  });
});

const principal = (over: Partial<ApiPrincipal>): ApiPrincipal => ({
  subject: "someone",
  sessionId: "s",
  mode: "jwt",
  claims: {},
  verified: true,
  scopes: [],
  roles: [],
  ...over,
});

describe("per-client policies (RATE_LIMITS)", () => {
  it("reads entries and names each bad one", () => {
    const { policies, errors } = parseRateLimits("client:crm-sync=50:1000, role:admin=2.5:100,sub:job@x=1:1");
    expect([...policies.values()]).toEqual([
      { name: "client:crm-sync", perSecond: 50, burst: 1000 },
      { name: "role:admin", perSecond: 2.5, burst: 100 },
      { name: "sub:job@x", perSecond: 1, burst: 1 },
    ]);
    expect(errors).toEqual([]);
    const bad = parseRateLimits(
      "role:wizard=1:1,client:a=0:5,client:b=1:0,nonsense,client:c=1:1,client:c=2:2",
    );
    expect(bad.errors).toHaveLength(5);
    expect(bad.errors.join(" ")).toContain("role:wizard");
    expect(parseRateLimits(undefined)).toEqual({ policies: new Map(), errors: [] });
  });

  it("chooses the subject's, the client's, then the most generous role's, else the default", () => {
    const { policies } = parseRateLimits(
      "sub:alice=9:9,client:crm=50:500,role:support_agent=1:10,role:admin=5:50",
    );
    const fallback = windowPolicy(600, 60);
    expect(policyFor(principal({ subject: "alice" }), policies, fallback).name).toBe("sub:alice");
    expect(policyFor(principal({ claims: { client_id: "crm" } }), policies, fallback).name).toBe(
      "client:crm",
    );
    expect(policyFor(principal({ claims: { azp: "crm" } }), policies, fallback).name).toBe("client:crm");
    expect(policyFor(principal({ roles: ["support_agent", "admin"] }), policies, fallback).name).toBe(
      "role:admin",
    );
    expect(policyFor(principal({}), policies, fallback)).toBe(fallback);
    // A demo token is no verified caller: anyone could claim a subject in it.
    expect(policyFor(principal({ subject: "alice", verified: false }), policies, fallback)).toBe(fallback);
    expect(policyFor(undefined, policies, fallback)).toBe(fallback);
  });
});
