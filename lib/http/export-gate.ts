import { getEnv } from "@/lib/env";
import { Semaphore } from "@/lib/runtime/semaphore";
import { serviceUnavailable } from "./problem.ts";

const g = globalThis as unknown as { parExportGate?: Semaphore };

/**
 * Exports read batch after batch for seconds; run unbounded, 32 of them took every pooled connection, so their
 * next batches (and everyone's reads) waited past the connect timeout and transfers were cut off mid-file.
 * A process streams at most EXPORT_CONCURRENCY exports at once (default half the pool); the others wait for a
 * slot before anything is sent, and get a 503 with Retry-After if none frees up within EXPORT_QUEUE_WAIT_MS.
 */
export async function acquireExportSlot(): Promise<() => void> {
  const env = getEnv();
  g.parExportGate ??= new Semaphore(env.EXPORT_CONCURRENCY ?? Math.max(1, Math.floor(env.DB_POOL_SIZE / 2)));
  const release = await g.parExportGate.acquire(env.EXPORT_QUEUE_WAIT_MS);
  if (!release) throw serviceUnavailable("Too many exports are running; try again shortly.");
  // A safety net: a response whose body is never read to the end nor cancelled must not hold its slot forever.
  setTimeout(release, 15 * 60_000).unref();
  return release;
}
