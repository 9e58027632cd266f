import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { type BatchResult, type ImportKind, type LineBatch, parseBatch } from "./parse-batch.ts";

/*
 * Validation is the import's CPU-bound part, so batches are parsed by worker threads while the main thread
 * reads the file and streams COPY data. `run` returns each batch's result; callers await them in the order
 * they were submitted, so bad lines are reported in line order whatever worker finishes first. With
 * `workers: 0` the batches are parsed inline (same function, same results).
 */

/** Workers by default: one per core, up to 4 (the main thread mostly waits on I/O and the database). */
export const defaultParseWorkers = () => Math.max(1, Math.min(4, availableParallelism()));

export class ParsePool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: { id: number; kind: ImportKind; batch: LineBatch }[] = [];
  private readonly waiting = new Map<
    number,
    { resolve: (r: BatchResult) => void; reject: (e: Error) => void }
  >();
  private nextId = 0;
  private failure: Error | null = null;

  constructor(workers: number) {
    for (let i = 0; i < workers; i++) {
      const worker = new Worker(new URL("./parse-worker-entry.mjs", import.meta.url));
      worker.on("message", (message: { id: number; result: BatchResult }) => {
        this.waiting.get(message.id)?.resolve(message.result);
        this.waiting.delete(message.id);
        this.dispatch(worker);
      });
      worker.on("error", (error) => this.fail(error));
      worker.on("exit", (code) => {
        if (code !== 0) this.fail(new Error(`parse worker exited with code ${code}`));
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  /** Worker threads (0: parsing inline). */
  get size(): number {
    return this.workers.length;
  }

  /** Parses `batch` (in a worker when there are any). */
  run(kind: ImportKind, batch: LineBatch): Promise<BatchResult> {
    if (this.failure) return Promise.reject(this.failure);
    if (!this.workers.length) {
      try {
        return Promise.resolve(parseBatch(kind, batch));
      } catch (error) {
        return Promise.reject(error);
      }
    }
    const id = this.nextId++;
    const result = new Promise<BatchResult>((resolve, reject) => this.waiting.set(id, { resolve, reject }));
    this.queue.push({ id, kind, batch });
    const worker = this.idle.pop();
    if (worker) this.dispatch(worker);
    return result;
  }

  private dispatch(worker: Worker): void {
    const next = this.queue.shift();
    if (next) worker.postMessage(next);
    else this.idle.push(worker);
  }

  private fail(error: Error): void {
    if (this.failure) return;
    this.failure = error;
    for (const { reject } of this.waiting.values()) reject(error);
    this.waiting.clear();
  }

  async close(): Promise<void> {
    this.failure ??= new Error("parse pool closed");
    await Promise.all(this.workers.map((w) => w.terminate()));
  }
}
