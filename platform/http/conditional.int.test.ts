import { randomUUID } from "node:crypto";
import type { Redis } from "ioredis";
import { afterAll, describe, expect, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";
import { redisReachable, TEST_REDIS_URL, testRedisPrefix } from "@/test/support/test-redis";
import {
  createRedisClient,
  MemoryStore,
  RateLimiter,
  type RateLimitStore,
  RedisStore,
  setRateLimiter,
  windowPolicy,
} from "./rate-limit.ts";

/* ETag, If-None-Match and Cache-Control on the API's JSON reads, through the route handlers. */

const PLAYER = "P000190";
const READS = [
  `/api/v1/players/${PLAYER}`,
  `/api/v1/players/${PLAYER}/transactions?limit=5`,
  `/api/v1/players?ids=${PLAYER},P000191`,
  `/api/v1/players/${PLAYER}/summary?period=all`,
];

/** Reads of player data: the profile, batch, search, transactions, summary, audit and the change feed. */
const PLAYER_DATA_READS = [
  ...READS,
  `/api/v1/players?q=${PLAYER}`,
  `/api/v1/players/${PLAYER}/audit`,
  "/api/v1/audit?limit=5",
  "/api/v1/changes?limit=5",
];

const kit = routeKitForFile();
const agent = await kitToken("agent-etag", { roles: ["support_agent"] });
const vip = await kitToken("vip-etag", { roles: ["vip_manager"] });
const admin = await kitToken("admin-etag", { roles: ["admin"] });

describe("conditional reads", () => {
  it("tag each JSON read, revalidate it, and answer 304 without a body for a current copy", async () => {
    for (const path of READS) {
      const first = await kit.call("GET", path, { token: agent });
      expect(first.status, path).toBe(200);
      expect(first.headers.get("cache-control"), path).toBe("private, no-store");
      const etag = first.headers.get("etag");
      expect(etag, path).toMatch(/^W\/"/);
      const again = await kit.call("GET", path, {
        token: agent,
        headers: { "if-none-match": etag as string },
      });
      expect(again.status, path).toBe(304);
      expect(again.text, path).toBe("");
      expect(again.headers.get("etag"), path).toBe(etag);
      expect(again.headers.get("cache-control"), path).toBe("private, no-store");
      expect(again.headers.get("x-request-id"), path).toBeTruthy();
    }
  });

  it("lets no cache store player data, the browser's included: private, no-store", async () => {
    for (const path of PLAYER_DATA_READS) {
      const read = await kit.call("GET", path, { token: admin });
      expect(read.status, path).toBe(200);
      expect(read.headers.get("cache-control"), path).toBe("private, no-store");
      expect(read.headers.get("etag"), path).toMatch(/^W\//);
    }
  });

  it("tags each scope's masking apart", async () => {
    const masked = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: agent });
    const full = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: vip });
    expect(masked.headers.get("etag")).not.toBe(full.headers.get("etag"));
    const stale = await kit.call("GET", `/api/v1/players/${PLAYER}`, {
      token: vip,
      headers: { "if-none-match": masked.headers.get("etag") as string },
    });
    expect(stale.status).toBe(200);
  });

  it("gives the list a new tag after a new transaction, the profile after a change of the player", async () => {
    const list = `/api/v1/players/${PLAYER}/transactions?limit=5`;
    const profile = `/api/v1/players/${PLAYER}`;
    const listTag = (await kit.call("GET", list, { token: agent })).headers.get("etag") as string;
    const profileTag = (await kit.call("GET", profile, { token: agent })).headers.get("etag") as string;
    const id = `ETAG-${randomUUID()}`;
    const db = getPrisma();
    await db.$executeRaw`INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at, completed_at, status)
      VALUES (${id}, ${PLAYER}, now(), 'deposit', 'Card', 25.5, 'EUR', 'System', now(), now(), 'completed')`;
    await db.$executeRaw`UPDATE players SET blocked = NOT blocked WHERE id = ${PLAYER}`;
    try {
      const after = await kit.call("GET", list, { token: agent, headers: { "if-none-match": listTag } });
      expect(after.status).toBe(200);
      expect(after.headers.get("etag")).not.toBe(listTag);
      expect(after.text).toContain(id);
      const changed = await kit.call("GET", profile, {
        token: agent,
        headers: { "if-none-match": profileTag },
      });
      expect(changed.status).toBe(200);
      expect(changed.headers.get("etag")).not.toBe(profileTag);
    } finally {
      await db.$executeRaw`DELETE FROM transactions WHERE id = ${id}`;
      await db.$executeRaw`UPDATE players SET blocked = NOT blocked WHERE id = ${PLAYER}`;
    }
    // Changed back, but changed: the profile's updated_at moved, so the old tag no longer matches; the new one does.
    const restored = await kit.call("GET", profile, {
      token: agent,
      headers: { "if-none-match": profileTag },
    });
    expect(restored.status).toBe(200);
    const again = await kit.call("GET", profile, {
      token: agent,
      headers: { "if-none-match": restored.headers.get("etag") as string },
    });
    expect(again.status).toBe(304);
  });

  it("records a 304 in the audit trail as the read it confirms", async () => {
    const session = `etag-${randomUUID()}`;
    const headers = { "x-session-id": session };
    const first = await kit.call("GET", `/api/v1/players/${PLAYER}`, { token: agent, headers });
    const etag = first.headers.get("etag") as string;
    const again = await kit.call("GET", `/api/v1/players/${PLAYER}`, {
      token: agent,
      headers: { ...headers, "if-none-match": etag },
    });
    expect(again.status).toBe(304);
    await getAuditQueue().flush();
    const rows = await getPrisma().$queryRaw<{ operation: string; player_id: string }[]>`
      SELECT operation::text, player_id FROM audit_events WHERE session_id = ${session}`;
    expect(rows).toEqual([
      { operation: "profile", player_id: PLAYER },
      { operation: "profile", player_id: PLAYER },
    ]);
  });

  it("keeps the export and problems no-store, without a tag", async () => {
    const exported = await kit.call("GET", `/api/v1/players/${PLAYER}/transactions/export?format=csv`, {
      token: agent,
    });
    expect(exported.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(exported.headers.get("etag")).toBeNull();
    const bad = await kit.call("GET", "/api/v1/players?ids=", { token: agent });
    expect(bad.headers.get("cache-control")).toBe("no-store");
    expect(bad.headers.get("etag")).toBeNull();
  });
});

/*
 * A 304 is free: 40 revalidations leave RateLimit-Remaining where it was (a token taken per request, given back
 * for its 304), and each is still audited. Before, they cost a token each: 594 → 562.
 */
const redisUp = await redisReachable();
const redisClients: Redis[] = [];
const REDIS_PREFIX = testRedisPrefix();

afterAll(async () => {
  setRateLimiter(undefined);
  const cleaner = redisClients[0];
  if (cleaner?.status === "ready") {
    const keys = await cleaner.keys(`${REDIS_PREFIX}*`);
    if (keys.length) await cleaner.del(...keys);
  }
  for (const client of redisClients) client.disconnect();
});

/** The stores a deployment counts in: memory, or Redis (shared by its instances). */
const stores: { name: string; make: () => RateLimitStore; skip: boolean }[] = [
  { name: "memory", make: () => new MemoryStore(), skip: false },
  {
    name: "redis",
    make: () => {
      const redis = createRedisClient(TEST_REDIS_URL);
      redisClients.push(redis);
      return new RedisStore(redis, REDIS_PREFIX);
    },
    skip: !redisUp,
  },
];

describe.each(stores)("a 304 and the quota ($name store)", ({ name, make, skip }) => {
  it.skipIf(skip)("leaves RateLimit-Remaining unchanged over 40 revalidations, each audited", async () => {
    // 600 a day: the bucket refills ~0.007 tokens a second, never a whole one during the test.
    setRateLimiter(new RateLimiter(windowPolicy(600, 86_400), make()));
    try {
      const token = await kitToken(`etag-quota-${name}-${randomUUID()}`, { roles: ["support_agent"] });
      const session = `etag-quota-${randomUUID()}`;
      const headers = { "x-session-id": session };
      const path = `/api/v1/players/${PLAYER}`;
      const first = await kit.call("GET", path, { token, headers });
      expect(first.status).toBe(200);
      expect(first.headers.get("ratelimit-remaining")).toBe("599");
      const etag = first.headers.get("etag") as string;
      const remaining: (string | null)[] = [];
      for (let i = 0; i < 40; i++) {
        const again = await kit.call("GET", path, { token, headers: { ...headers, "if-none-match": etag } });
        expect(again.status).toBe(304);
        expect(again.headers.get("ratelimit")).toBe(
          `"default";r=599;t=${again.headers.get("ratelimit-reset")}`,
        );
        remaining.push(again.headers.get("ratelimit-remaining"));
      }
      expect(remaining).toEqual(Array(40).fill("599"));
      // A full read still costs its token.
      const full = await kit.call("GET", path, { token, headers });
      expect(full.status).toBe(200);
      expect(full.headers.get("ratelimit-remaining")).toBe("598");
      await getAuditQueue().flush();
      const counted = await getPrisma().$queryRaw<{ count: bigint }[]>`
        SELECT count(*) FROM audit_events WHERE session_id = ${session} AND operation = 'profile'`;
      expect(Number(counted[0]?.count)).toBe(42);
    } finally {
      setRateLimiter(undefined);
    }
  });
});
