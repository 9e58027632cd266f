import "server-only";
import { isDatabaseUnavailable } from "@/platform/db/unavailable";
import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import { AuditQueue, type AuditRecord, type AuditWriter } from "./audit-queue.ts";
import { recordAuditEvents } from "./record-audit-events.ts";

const WARN_EVERY_MS = 10_000;

// One queue per process; Next.js may evaluate this module in several bundles, so it lives on globalThis.
const g = globalThis as unknown as { parAuditQueue?: AuditQueue };

/**
 * Writes a batch; an outage is thrown (every read of the batch answers 503). Any other failure means some
 * record itself may be unacceptable to the database: the records are then written one by one, so one bad
 * record costs only its own read.
 */
export function resilientWriter(write: (records: AuditRecord[]) => Promise<void>): AuditWriter {
  return async (records) => {
    try {
      await write(records);
      return undefined;
    } catch (error) {
      if (isDatabaseUnavailable(error) || records.length === 1) throw error;
      const rejected = new Map<AuditRecord, unknown>();
      for (const record of records) {
        try {
          await write([record]);
        } catch (single) {
          if (isDatabaseUnavailable(single)) throw single;
          rejected.set(record, single);
        }
      }
      return rejected;
    }
  };
}

function createAuditQueue(): AuditQueue {
  const env = getEnv();
  let lastWarning = 0;
  const synchronousCommit = env.AUDIT_SYNCHRONOUS_COMMIT === "on";
  return new AuditQueue(
    resilientWriter((records) => recordAuditEvents(records, { synchronousCommit })),
    {
      batchSize: env.AUDIT_BATCH_SIZE,
      maxPending: env.AUDIT_MAX_PENDING,
      onWriteError(error, records) {
        if (Date.now() - lastWarning < WARN_EVERY_MS) return;
        lastWarning = Date.now();
        log.error("audit write failed: its reads answered 503", { records, ...describeError(error) });
      },
    },
  );
}

export function getAuditQueue(): AuditQueue {
  g.parAuditQueue ??= createAuditQueue();
  return g.parAuditQueue;
}

/** Tests swap the queue (e.g. for one with a counting writer). */
export function setAuditQueue(queue: AuditQueue | undefined): void {
  g.parAuditQueue = queue;
}

/**
 * Clean shutdown: waits for the records of the reads still in flight (their answers wait for them too), up to
 * AUDIT_SHUTDOWN_TIMEOUT_MS.
 */
export async function shutdownAuditQueue(): Promise<void> {
  const queue = g.parAuditQueue;
  if (!queue) return;
  const timeoutMs = getEnv().AUDIT_SHUTDOWN_TIMEOUT_MS;
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, timeoutMs);
    timer.unref();
  });
  await Promise.race([queue.flush(), deadline]);
  clearTimeout(timer);
  log.info("audit queue drained", { written: queue.written, failed: queue.failed, pending: queue.pending });
}
