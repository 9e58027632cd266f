import { isDatabaseUnavailable } from "@/lib/db/unavailable";
import { getEnv } from "@/lib/env";
import { describeError, log } from "@/lib/log";
import { AuditQueue, type AuditRecord, type AuditWriter } from "./audit-queue.ts";
import { recordAuditEvents } from "./record-audit-events.ts";

const WARN_EVERY_MS = 30_000;

// One queue per process; Next.js may evaluate this module in several bundles, so it lives on globalThis.
const g = globalThis as unknown as { parAuditQueue?: AuditQueue };

/**
 * Writes a batch; an outage is thrown (the queue retries the batch later). Any other failure means some
 * record itself is unacceptable to the database: the records are then written one by one and the
 * rejected ones logged, so one bad record never blocks the trail.
 */
export function resilientWriter(
  write: AuditWriter,
  onRejected: (record: AuditRecord, error: unknown) => void,
): AuditWriter {
  return async (records) => {
    try {
      await write(records);
    } catch (error) {
      if (isDatabaseUnavailable(error) || records.length === 0) throw error;
      for (const record of records) {
        try {
          await write([record]);
        } catch (single) {
          if (isDatabaseUnavailable(single)) throw single;
          onRejected(record, single);
        }
      }
    }
  };
}

function createAuditQueue(): AuditQueue {
  const env = getEnv();
  let lastWarning = 0;
  const writer = resilientWriter(
    (records) => recordAuditEvents(records),
    (record, error) =>
      log.error("audit record rejected by the database", { audit: record, ...describeError(error) }),
  );
  return new AuditQueue(writer, {
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
    onDrained(summary) {
      log.info("audit queue drained", summary);
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
  await queue.shutdown(getEnv().AUDIT_SHUTDOWN_TIMEOUT_MS);
}
