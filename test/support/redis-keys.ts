import { Redis } from "ioredis";

/** Deletes a test run's Redis keys (those starting with `prefix`), when a Redis answers at `url`; else nothing. */
export async function deleteRedisKeys(url: string, prefix: string): Promise<void> {
  const redis = new Redis(url, { lazyConnect: true, maxRetriesPerRequest: 0 });
  redis.on("error", () => {});
  if (
    await redis.connect().then(
      () => true,
      () => false,
    )
  ) {
    const keys = await redis.keys(`${prefix}*`);
    if (keys.length) await redis.del(...keys);
  }
  redis.disconnect();
}
