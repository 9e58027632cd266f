import type { AuditFilters, AuditOperation } from "@/lib/schemas/audit";

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
  requestId: string;
  clientAddress: string | null;
}

export type AuditWriter = (records: AuditRecord[]) => Promise<void>;

export interface AuditQueueOptions {
  /** Write at most this many records per INSERT. */
  batchSize: number;
  /** A record waits at most this long before its batch is written (unless the database is down). */
  flushIntervalMs: number;
  /** Records held (queued or being written) beyond which `isFull()` is true. */
  maxPending: number;
  /** Called on each failed write with the number of records waiting; the queue retries with backoff. */
  onWriteError?: (error: unknown, pending: number) => void;
  /** Called with records given up on at shutdown (the deadline passed): the caller keeps them elsewhere. */
  onAbandon?: (records: AuditRecord[]) => void;
  /**
   * Called once a shutdown has emptied the queue, synchronously before the last records' promises settle
   * (the process may exit right after they do).
   */
  onDrained?: (summary: { written: number; abandoned: number }) => void;
}

const MAX_BACKOFF_MS = 5_000;

/**
 * Reads are recorded off the request path: `add` is synchronous and cheap, and batches are written
 * by one writer at a time with a multi-row INSERT. A failed batch goes back to the head of the queue and
 * is retried with backoff, so a database outage delays records but does not lose them. `shutdown()`
 * writes everything still queued, and what arrives meanwhile (clean shutdown).
 */
export class AuditQueue {
  private queue: AuditRecord[] = [];
  private writing: AuditRecord[] = [];
  private timer: NodeJS.Timeout | undefined;
  private active: Promise<void> | undefined;
  private failures = 0;
  private draining = false;
  private reported = false;
  private deadline = Number.POSITIVE_INFINITY;
  /** The current busy stretch (see add): settled when nothing is queued or being written any more. */
  private stretch: { settled: Promise<void>; settle: () => void } | undefined;
  /** Records written so far. */
  written = 0;
  /** Records given up on at shutdown (handed to onAbandon). */
  abandoned = 0;

  constructor(
    private readonly writer: AuditWriter,
    private readonly options: AuditQueueOptions,
  ) {}

  /** Records queued or being written. */
  get pending(): number {
    return this.queue.length + this.writing.length;
  }

  isFull(): boolean {
    return this.pending >= this.options.maxPending;
  }

  /**
   * Queues a record without a promise of its own. Only the first record of a busy stretch gets one: it settles
   * once the queue is next empty, every record queued until then written (or handed to `onAbandon`). Request
   * handlers pass it to Next.js's after(), which keeps the process alive for it (also through a shutdown);
   * the reads in between need no after() of their own (one per read cost ~50 µs of a profile read's CPU,
   * docs/performance.md).
   */
  add(record: AuditRecord): Promise<void> | undefined {
    this.push(record);
    if (this.stretch) return undefined;
    let settle: () => void = () => {};
    const settled = new Promise<void>((resolve) => {
      settle = resolve;
    });
    this.stretch = { settled, settle };
    return settled;
  }

  private push(record: AuditRecord): void {
    this.queue.push(record);
    if (this.draining) this.reported = false; // report again once this one is written too
    const fullBatch = this.queue.length >= this.options.batchSize && this.failures === 0;
    if (this.draining || fullBatch) this.kick();
    else this.schedule(this.options.flushIntervalMs);
  }

  /** Ends the busy stretch once nothing is queued or being written. */
  private endStretchIfIdle(): void {
    if (!this.stretch || this.pending > 0) return;
    const { settle } = this.stretch;
    this.stretch = undefined;
    settle();
  }

  private schedule(delayMs: number): void {
    if (this.timer || this.active) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.kick();
    }, delayMs);
    // Never keep a process alive just for this timer; shutdown() drains explicitly.
    this.timer.unref();
  }

  private kick(): void {
    if (this.timer) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    this.active ??= this.drain().finally(() => {
      this.active = undefined;
      this.afterDrain();
    });
  }

  private afterDrain(): void {
    if (this.queue.length === 0) return;
    const now = Date.now();
    if (this.draining && now >= this.deadline) {
      this.abandonQueued();
      return;
    }
    const backoff =
      this.failures === 0
        ? this.options.flushIntervalMs
        : Math.min(this.options.flushIntervalMs * 2 ** this.failures, MAX_BACKOFF_MS);
    this.schedule(this.draining ? Math.min(backoff, this.deadline - now) : backoff);
  }

  /** Writes batches until the queue is empty or a write fails. */
  private async drain(): Promise<void> {
    while (this.queue.length > 0) {
      this.writing = this.queue.splice(0, this.options.batchSize);
      try {
        await this.writer(this.writing);
      } catch (error) {
        this.failures += 1;
        this.queue.unshift(...this.writing);
        this.writing = [];
        this.options.onWriteError?.(error, this.pending);
        return;
      }
      this.failures = 0;
      this.written += this.writing.length;
      this.writing = [];
      this.reportIfDrained();
      this.endStretchIfIdle();
    }
  }

  private reportIfDrained(): void {
    if (this.draining && !this.reported && this.pending === 0) {
      this.reported = true;
      this.options.onDrained?.({ written: this.written, abandoned: this.abandoned });
    }
  }

  private abandonQueued(): void {
    const left = this.queue.splice(0);
    if (left.length === 0) return;
    this.abandoned += left.length;
    this.options.onAbandon?.(left);
    this.reportIfDrained();
    this.endStretchIfIdle();
  }

  /** Writes everything queued now; resolves when the queue is empty or a write failed. */
  async flush(): Promise<void> {
    this.kick();
    while (this.active) await this.active;
  }

  /**
   * Clean shutdown: from now on records are written as soon as they arrive, failed writes are retried
   * until `timeoutMs` has passed, and whatever is still unwritten then goes to `onAbandon`. Resolves when
   * nothing is pending; returns the number of records abandoned.
   */
  async shutdown(timeoutMs: number): Promise<number> {
    this.draining = true;
    this.deadline = Date.now() + timeoutMs;
    this.reportIfDrained();
    this.kick();
    while (this.pending > 0 || this.active) {
      await (this.active ?? new Promise((r) => setTimeout(r, 10)));
    }
    return this.abandoned;
  }
}
