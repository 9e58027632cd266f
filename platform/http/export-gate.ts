import { getEnv } from "@/platform/env/env";
import { ApiError, PROBLEM_TYPES, serviceUnavailable } from "@/platform/problems/problem";
import { Semaphore } from "@/platform/runtime/semaphore";

const g = globalThis as unknown as { parExportGate?: Semaphore; parExportsByCaller?: Map<string, number> };

/** Seconds a caller over its export cap is told to wait: an export of a large player takes about that long. */
const PER_CALLER_RETRY_SECONDS = 10;

function tooManyExports(limit: number): ApiError {
  return new ApiError({
    status: 429,
    type: PROBLEM_TYPES.tooManyExports,
    title: "Too many exports running",
    detail: `This caller already has ${limit} export${limit === 1 ? "" : "s"} running; retry when one has finished.`,
    headers: { "Retry-After": String(PER_CALLER_RETRY_SECONDS) },
  });
}

/** Counts the caller's export in; the returned function counts it out (once). Throws 429 beyond the cap. */
function admitCaller(caller: string): () => void {
  const limit = getEnv().EXPORT_PER_CALLER;
  g.parExportsByCaller ??= new Map();
  const running = g.parExportsByCaller;
  const count = running.get(caller) ?? 0;
  if (count >= limit) throw tooManyExports(limit);
  running.set(caller, count + 1);
  let left = false;
  return () => {
    if (left) return;
    left = true;
    const now = (running.get(caller) ?? 1) - 1;
    if (now > 0) running.set(caller, now);
    else running.delete(caller);
  };
}

/**
 * Exports read batch after batch for seconds; run unbounded, 32 of them took every pooled connection, so their
 * next batches (and everyone's reads) waited past the connect timeout and transfers were cut off mid-file.
 * A process streams at most EXPORT_CONCURRENCY exports at once (default half the pool); the others wait for a
 * slot before anything is sent, and get a 503 with Retry-After if none frees up within EXPORT_QUEUE_WAIT_MS.
 * One caller (`caller`: the token subject, else the client address) holds at most EXPORT_PER_CALLER of them,
 * waiting ones included, so a few clients that stop reading cannot take every slot (429 beyond it).
 */
export async function acquireExportSlot(caller: string): Promise<() => void> {
  const env = getEnv();
  const leave = admitCaller(caller);
  g.parExportGate ??= new Semaphore(env.EXPORT_CONCURRENCY ?? Math.max(1, Math.floor(env.DB_POOL_SIZE / 2)));
  const releaseSlot = await g.parExportGate.acquire(env.EXPORT_QUEUE_WAIT_MS);
  if (!releaseSlot) {
    leave();
    throw serviceUnavailable("Too many exports are running; try again shortly.");
  }
  const release = () => {
    releaseSlot();
    leave();
  };
  // A safety net: a response whose body is never read to the end nor cancelled must not hold its slot forever.
  setTimeout(release, 15 * 60_000).unref();
  return release;
}
