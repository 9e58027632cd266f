import "server-only";
import type { AuditOperationName as AuditOperation } from "@/platform/audit/audit-operations";

/** The query parameters of the recorded request, as sent (the audit schema's AuditFilters). */
export type AuditFilters = Record<string, string | string[]>;

/** One successful read, as the request handler saw it. */
export interface AuditRecord {
  occurredAt: Date;
  subject: string;
  /** The person's display name from the token (see subject-name.ts); null or absent when it names nobody. */
  subjectName?: string | null;
  authMode: "demo" | "jwt";
  scopes: string[];
  sessionId: string;
  operation: AuditOperation;
  playerId: string | null;
  resultPlayerIds: string[];
  filters: AuditFilters;
  /** The server's own id of the request (also in the access log and the response's X-Request-ID). */
  requestId: string;
  /** The X-Request-ID the client sent, if it was a well-formed one; never used as the record's id. */
  clientRequestId?: string | null;
  clientAddress: string | null;
}

/**
 * Writes a batch in one transaction. Settles per record: a record the database rejected (while the others
 * were written) is listed in the result; a failure of the whole batch (an outage) is thrown.
 */
export type AuditWriter = (records: AuditRecord[]) => Promise<AuditWriteResult>;

/** The records of a batch that were not written, each with the database's reason. */
export type AuditWriteResult = ReadonlyMap<AuditRecord, unknown> | undefined;

export interface AuditQueueOptions {
  /** Write at most this many records per INSERT. */
  batchSize: number;
  /** Records waiting (queued or being written) beyond which `isFull()` is true and reads answer 503. */
  maxPending: number;
  /** Called on each failed write with the number of records in it (each of their reads answers 503). */
  onWriteError?: (error: unknown, records: number) => void;
}

interface Waiting {
  record: AuditRecord;
  resolve: () => void;
  reject: (error: unknown) => void;
}

/**
 * Group commit: `add` returns a promise that settles once the record is committed, and the request handler
 * sends its answer only then (a read that cannot be recorded answers 503 instead). While one batch is being
 * written the records of the next requests gather, and go out together in the next INSERT: under load a
 * commit carries as many records as arrived during the previous one, so the per-read cost stays small; alone,
 * a record is written at once (within the same tick as the requests that arrived with it).
 */
export class AuditQueue {
  private queue: Waiting[] = [];
  private writing = 0;
  private writer: Promise<void> | undefined;
  private kickQueued = false;
  /** Records committed so far. */
  written = 0;
  /** Records whose write failed (their reads answered 503). */
  failed = 0;

  constructor(
    private readonly write: AuditWriter,
    private readonly options: AuditQueueOptions,
  ) {}

  /** Records queued or being written. */
  get pending(): number {
    return this.queue.length + this.writing;
  }

  isFull(): boolean {
    return this.pending >= this.options.maxPending;
  }

  /** Settles when the record is committed; rejects with the database's error when it could not be. */
  add(record: AuditRecord): Promise<void> {
    const committed = new Promise<void>((resolve, reject) => {
      this.queue.push({ record, resolve, reject });
    });
    // Requests answered in the same tick share the next INSERT.
    if (!this.writer && !this.kickQueued) {
      this.kickQueued = true;
      queueMicrotask(() => {
        this.kickQueued = false;
        this.kick();
      });
    }
    return committed;
  }

  private kick(): void {
    this.writer ??= this.drain().finally(() => {
      this.writer = undefined;
    });
  }

  /** Writes batches until nothing is queued; one batch at a time, so the next one gathers meanwhile. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      const batch = this.queue.splice(0, this.options.batchSize);
      this.writing = batch.length;
      try {
        this.settle(batch, await this.write(batch.map((w) => w.record)));
      } catch (error) {
        this.failed += batch.length;
        this.options.onWriteError?.(error, batch.length);
        for (const waiting of batch) waiting.reject(error);
      } finally {
        this.writing = 0;
      }
    }
  }

  private settle(batch: Waiting[], rejected: AuditWriteResult): void {
    for (const waiting of batch) {
      const reason = rejected?.get(waiting.record);
      if (rejected?.has(waiting.record)) {
        this.failed += 1;
        waiting.reject(reason);
      } else {
        this.written += 1;
        waiting.resolve();
      }
    }
  }

  /** Resolves when every record added so far has been written or has failed. */
  async flush(): Promise<void> {
    while (this.writer || this.queue.length > 0 || this.kickQueued) {
      this.kick();
      await this.writer;
    }
  }
}
