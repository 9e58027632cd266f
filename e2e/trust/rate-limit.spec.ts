import { randomUUID } from "node:crypto";
import { expect, test } from "@playwright/test";
import { Redis } from "ioredis";
import { E2E_JWT_SECRET, signToken } from "../../test/support/e2e-auth.ts";
import {
  type AppProcess,
  appBase,
  appsStoppedAfterAll,
  type HttpResult,
  httpGet,
  isFailure,
  postgresTestDatabase,
} from "./harness.ts";

/*
 * Two instances share one caller's quota through Redis; a third, whose Redis is unreachable, keeps
 * serving with per-instance limits. Keys use this run's prefix (TEST_DB_PREFIX) and are removed after.
 */
const DATABASE_URL = postgresTestDatabase();
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const PREFIX = `${process.env.TEST_DB_PREFIX ?? "par"}:e2e:${randomUUID()}:`;
const MAX = 6;
const JOB_CLIENT = `crm-sync-${randomUUID().slice(0, 8)}`;

const startApp = appsStoppedAfterAll();
const apps: AppProcess[] = [];
let redis: Redis | undefined;

test.beforeAll(async () => {
  redis = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  const up = await redis.connect().then(
    () => true,
    () => false,
  );
  if (!up && process.env.CI === "true") throw new Error(`Redis is required under CI (${REDIS_URL})`);
  test.skip(!up, `Redis not reachable at ${REDIS_URL}`);
  const env = {
    DATABASE_URL,
    AUTH_MODE: "demo",
    AUTH_JWT_SECRET: E2E_JWT_SECRET,
    RATE_LIMIT_MAX: String(MAX),
    RATE_LIMIT_WINDOW_SECONDS: "60",
    // A sync job's own bucket: 20 at once, refilled at one per 100 s (so the test sees it run dry).
    RATE_LIMITS: `client:${JOB_CLIENT}=0.01:20`,
    REDIS_KEY_PREFIX: PREFIX,
    LOG_LEVEL: "warn",
  };
  apps.push(
    ...(await Promise.all([
      startApp(appBase + 2, { ...env, REDIS_URL }),
      startApp(appBase + 3, { ...env, REDIS_URL }),
      // Nothing listens on port 1: this instance's Redis is "down" from the start.
      startApp(appBase + 4, { ...env, REDIS_URL: "redis://127.0.0.1:1" }),
    ])),
  );
});

test.afterAll(async () => {
  if (redis?.status === "ready") {
    const keys = await redis.keys(`${PREFIX}*`);
    if (keys.length) await redis.del(...keys);
  }
  redis?.disconnect();
});

async function get(app: AppProcess | undefined, token: string): Promise<HttpResult> {
  const res = await httpGet(`${app?.url}/api/v1/players/P000003`, {
    Authorization: `Bearer ${token}`,
    "X-Session-ID": "rate-limit",
  });
  if (isFailure(res)) throw new Error(res.error);
  return res;
}

test("one caller's quota is shared by all instances through Redis", async () => {
  const [a, b] = apps;
  const alice = await signToken(`alice-${randomUUID()}`, { roles: ["support_agent"] });
  const results = [];
  for (let i = 0; i < MAX + 3; i++) results.push(await get(i % 2 ? a : b, alice));
  expect(results.map((r) => r.status)).toEqual([...Array(MAX).fill(200), 429, 429, 429]);

  const limited = results[MAX];
  expect(limited?.headers["content-type"]).toBe("application/problem+json");
  // A token bucket: the next request is one token (60 s / MAX) away, not the end of a 60 s window.
  expect(Number(limited?.headers["retry-after"])).toBeGreaterThan(0);
  expect(Number(limited?.headers["retry-after"])).toBeLessThanOrEqual(60 / MAX);
  expect(limited?.headers["ratelimit-policy"]).toBe(`"default";q=${MAX};w=60`);
  expect(limited?.headers.ratelimit).toMatch(/^"default";r=0;t=\d+$/);
  expect(results[0]?.headers["ratelimit-remaining"]).toBe(String(MAX - 1));

  // Another caller is not starved by the first.
  const bob = await signToken(`bob-${randomUUID()}`, { roles: ["support_agent"] });
  expect((await get(a, bob)).status).toBe(200);
  expect((await get(b, bob)).status).toBe(200);
});

test("a client-credentials job gets its own bucket from RATE_LIMITS, shared through Redis", async () => {
  const [a, b] = apps;
  const job = await signToken(`svc-${randomUUID()}`, { client_id: JOB_CLIENT, scope: "players:read" });
  const results = [];
  for (let i = 0; i < 24; i++) results.push(await get(i % 2 ? a : b, job));
  // Its own 20 at once across both instances (not the default's 6), then refused.
  expect(results.map((r) => r.status)).toEqual([...Array(20).fill(200), 429, 429, 429, 429]);
  expect(results[0]?.headers["ratelimit-policy"]).toBe(`"client:${JOB_CLIENT}";q=20;w=2000`);
  expect(Number(results[20]?.headers["retry-after"])).toBeLessThanOrEqual(100);
});

test("with Redis unreachable an instance still serves, limiting per instance", async () => {
  const down = apps[2];
  const carol = await signToken(`carol-${randomUUID()}`, { roles: ["support_agent"] });
  const statuses = [];
  for (let i = 0; i < MAX + 2; i++) statuses.push((await get(down, carol)).status);
  expect(statuses).toEqual([...Array(MAX).fill(200), 429, 429]);
  expect(down?.output()).toContain("redis unavailable");
});
