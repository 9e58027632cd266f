import { randomUUID } from "node:crypto";
import { Redis } from "ioredis";

/** The tests' Redis (TEST_REDIS_URL or the local server). */
export const TEST_REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";

/** A key prefix of one test file's run: parallel runs never collide (TEST_DB_PREFIX names this run's keys). */
export const testRedisPrefix = () => `${process.env.TEST_DB_PREFIX ?? "par"}:test:${randomUUID()}:`;

/**
 * Whether the tests' Redis answers. Under CI=true it must (it is part of the machine): throws otherwise. Elsewhere
 * the caller skips its Redis tests, and this warns once.
 */
export async function redisReachable(): Promise<boolean> {
  const probe = new Redis(TEST_REDIS_URL, {
    lazyConnect: true,
    maxRetriesPerRequest: 0,
    connectTimeout: 1_000,
  });
  probe.on("error", () => {});
  let reachable = false;
  try {
    await probe.connect();
    await probe.ping();
    reachable = true;
  } catch {
    reachable = false;
  } finally {
    probe.disconnect();
  }
  if (!reachable && process.env.CI === "true")
    throw new Error(`Redis is required under CI (${TEST_REDIS_URL})`);
  if (!reachable) console.warn(`Redis not reachable at ${TEST_REDIS_URL}: skipping the tests that need it`);
  return reachable;
}
