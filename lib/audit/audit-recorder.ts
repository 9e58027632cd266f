import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { AuditQueue } from "./audit-queue.ts";
import { recordAuditEvents } from "./record-audit-events.ts";

const WARN_EVERY_MS = 30_000;

// One queue per process; Next.js may evaluate this module in several bundles, so it lives on globalThis.
const g = globalThis as unknown as { parAuditQueue?: AuditQueue };

function createAuditQueue(): AuditQueue {
  const env = getEnv();
  let lastWarning = 0;
  return new AuditQueue((records) => recordAuditEvents(records), {
    batchSize: env.AUDIT_BATCH_SIZE,
    flushIntervalMs: env.AUDIT_FLUSH_INTERVAL_MS,
    maxPending: env.AUDIT_MAX_PENDING,
    onWriteError(error, pending) {
      if (Date.now() - lastWarning < WARN_EVERY_MS) return;
      lastWarning = Date.now();
      log.warn("audit write failed; retrying", { pending, ...describeError(error) });
    },
    onAbandon(records) {
      // Last resort at shutdown with the database gone: the log keeps them for manual replay.
      for (const record of records) log.error("audit record not persisted", { audit: record });
    },
  });
}

export function getAuditQueue(): AuditQueue {
  g.parAuditQueue ??= createAuditQueue();
  return g.parAuditQueue;
}

/** Tests and the overhead benchmark swap the queue (e.g. for one with a counting writer). */
export function setAuditQueue(queue: AuditQueue | undefined): void {
  g.parAuditQueue = queue;
}

/**
 * Clean shutdown: writes what is queued and what in-flight requests still add, retrying up to
 * AUDIT_SHUTDOWN_TIMEOUT_MS; then logs anything it could not write.
 */
export async function shutdownAuditQueue(): Promise<void> {
  const queue = g.parAuditQueue;
  if (!queue) return;
  const abandoned = await queue.shutdown(getEnv().AUDIT_SHUTDOWN_TIMEOUT_MS);
  log.info("audit queue drained", { written: queue.written, abandoned });
}
