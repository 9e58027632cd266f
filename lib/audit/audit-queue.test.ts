import { afterEach, describe, expect, it, vi } from "vitest";
import { AuditQueue, type AuditQueueOptions, type AuditRecord } from "./audit-queue.ts";

const record = (n: number): AuditRecord => ({
  occurredAt: new Date(0),
  subject: "demo",
  authMode: "demo",
  scopes: ["players:read"],
  sessionId: "s",
  operation: "profile",
  playerId: `P${n}`,
  resultPlayerIds: [],
  filters: {},
  requestId: `r${n}`,
  clientAddress: "127.0.0.1",
});

/** A writer whose database can be taken down and brought back. */
function fakeDatabase() {
  const rows: AuditRecord[] = [];
  const batches: number[] = [];
  let down = false;
  return {
    rows,
    batches,
    setDown: (value: boolean) => {
      down = value;
    },
    writer: async (records: AuditRecord[]) => {
      await Promise.resolve();
      if (down) throw new Error("connect ECONNREFUSED");
      batches.push(records.length);
      rows.push(...records);
    },
  };
}

const options = (o: Partial<AuditQueueOptions> = {}): AuditQueueOptions => ({
  batchSize: 10,
  flushIntervalMs: 250,
  maxPending: 1_000,
  ...o,
});

afterEach(() => {
  vi.useRealTimers();
});

/**
 * Queues the records as reads do (add); resolves when each busy stretch they started has ended, i.e. when every
 * one of them is written or handed to onAbandon.
 */
function addAll(queue: AuditQueue, records: AuditRecord[]): Promise<unknown> {
  return Promise.all(records.map((r) => queue.add(r)));
}

/** A queue whose database is down, retrying every 10 ms, collecting what it gives up on at shutdown. */
function queueWithDatabaseDown() {
  const db = fakeDatabase();
  db.setDown(true);
  const abandoned: AuditRecord[] = [];
  const queue = new AuditQueue(
    db.writer,
    options({ flushIntervalMs: 10, onAbandon: (records) => abandoned.push(...records) }),
  );
  return { db, queue, abandoned };
}

describe("audit queue", () => {
  it("writes a few records after the flush interval, in one INSERT", async () => {
    vi.useFakeTimers();
    const db = fakeDatabase();
    const queue = new AuditQueue(db.writer, options());
    const written = addAll(queue, [1, 2, 3].map(record));
    await vi.advanceTimersByTimeAsync(200);
    expect(db.batches).toEqual([]);
    await vi.advanceTimersByTimeAsync(50);
    expect(db.batches).toEqual([3]);
    await written;
    expect(queue.pending).toBe(0);
  });

  it("writes at once when a batch is full, in batches of at most batchSize, in order", async () => {
    vi.useFakeTimers();
    const db = fakeDatabase();
    const queue = new AuditQueue(db.writer, options());
    const written = addAll(
      queue,
      Array.from({ length: 25 }, (_, i) => record(i)),
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(db.batches).toEqual([10, 10, 5]);
    await written;
    expect(db.rows.map((r) => r.requestId)).toEqual(Array.from({ length: 25 }, (_, i) => `r${i}`));
    expect(queue.written).toBe(25);
  });

  it("keeps records through a database outage and writes them, in order, when it returns", async () => {
    vi.useFakeTimers();
    const db = fakeDatabase();
    const errors: number[] = [];
    const queue = new AuditQueue(db.writer, options({ onWriteError: (_e, pending) => errors.push(pending) }));
    db.setDown(true);
    const written = addAll(queue, [1, 2, 3].map(record));
    await vi.advanceTimersByTimeAsync(3_000);
    expect(db.rows).toHaveLength(0);
    expect(errors.length).toBeGreaterThan(1);
    expect(queue.pending).toBe(3);
    db.setDown(false);
    await vi.advanceTimersByTimeAsync(6_000);
    await written;
    expect(db.rows.map((r) => r.requestId)).toEqual(["r1", "r2", "r3"]);
  });

  it("reports full when the backlog reaches its bound", () => {
    const queue = new AuditQueue(fakeDatabase().writer, options({ maxPending: 3 }));
    for (let i = 0; i < 2; i++) void queue.add(record(i));
    expect(queue.isFull()).toBe(false);
    void queue.add(record(3));
    expect(queue.isFull()).toBe(true);
  });

  it("on shutdown writes what is queued and what arrives meanwhile, without waiting for the interval", async () => {
    const db = fakeDatabase();
    const queue = new AuditQueue(db.writer, options({ flushIntervalMs: 60_000 }));
    const first = addAll(queue, [1, 2].map(record));
    const done = queue.shutdown(5_000);
    const late = queue.add(record(3)); // an in-flight request finishing during shutdown
    expect(await done).toBe(0);
    await Promise.all([first, late]);
    expect(db.rows.map((r) => r.requestId).sort()).toEqual(["r1", "r2", "r3"]);
  });

  it("reports the drained queue before the busy stretch's promise settles (the process may exit then)", async () => {
    const db = fakeDatabase();
    const events: string[] = [];
    const queue = new AuditQueue(
      db.writer,
      options({
        flushIntervalMs: 60_000,
        onDrained: (s) => events.push(`drained ${s.written}/${s.abandoned}`),
      }),
    );
    const written = queue.add(record(1))?.then(() => events.push("settled"));
    await queue.shutdown(1_000);
    await written;
    expect(events).toEqual(["drained 1/0", "settled"]);
  });

  it("on shutdown with the database gone, gives up after the deadline and hands the records over", async () => {
    const { db, queue, abandoned } = queueWithDatabaseDown();
    const written = addAll(queue, [1, 2].map(record));
    expect(await queue.shutdown(100)).toBe(2);
    await written; // settled, not hanging
    expect(abandoned.map((r) => r.requestId)).toEqual(["r1", "r2"]);
    expect(db.rows).toHaveLength(0);
  });
});

describe("audit queue: one promise per busy stretch (add)", () => {
  it("gives the first record of a stretch a promise that settles when every record queued meanwhile is written", async () => {
    vi.useFakeTimers();
    const db = fakeDatabase();
    const queue = new AuditQueue(db.writer, options({ batchSize: 2 }));
    const settledAt: number[] = [];
    const stretch = queue.add(record(1));
    expect(stretch).toBeInstanceOf(Promise);
    void stretch?.then(() => settledAt.push(db.rows.length));
    // Later records of the stretch get no promise of their own. r2 fills a batch, written at once; r3 arrives
    // while it is being written and is written right after it, in the same stretch.
    expect([2, 3].map((n) => queue.add(record(n)))).toEqual([undefined, undefined]);
    await vi.advanceTimersByTimeAsync(0);
    expect(db.batches).toEqual([2, 1]);
    expect(settledAt).toEqual([3]);
    // The queue was empty: the next record starts a new stretch, written after the interval.
    const next = queue.add(record(4));
    expect(next).toBeInstanceOf(Promise);
    expect(queue.add(record(5))).toBeUndefined();
    await vi.advanceTimersByTimeAsync(250);
    await next;
    expect(db.batches).toEqual([2, 1, 2]);
    expect(db.rows.map((r) => r.requestId)).toEqual(["r1", "r2", "r3", "r4", "r5"]);
  });

  it("keeps the stretch open through an outage, and settles it at shutdown when the records are handed over", async () => {
    const { queue, abandoned } = queueWithDatabaseDown();
    let settled = false;
    void queue.add(record(1))?.then(() => {
      settled = true;
    });
    queue.add(record(2));
    await new Promise((r) => setTimeout(r, 50));
    expect(settled).toBe(false);
    expect(await queue.shutdown(100)).toBe(2);
    await Promise.resolve();
    expect(settled).toBe(true);
    expect(abandoned.map((r) => r.requestId)).toEqual(["r1", "r2"]);
  });
});

describe("resilient writer", () => {
  it("writes the good records of a batch one by one when the database rejects one of them", async () => {
    const { resilientWriter } = await import("./audit-recorder.ts");
    const rows: string[] = [];
    const rejected: string[] = [];
    const write = async (records: AuditRecord[]) => {
      if (records.some((r) => r.requestId === "bad")) throw new Error("invalid input syntax for type json");
      rows.push(...records.map((r) => r.requestId));
    };
    const writer = resilientWriter(write, (r) => rejected.push(r.requestId));
    await writer([record(1), { ...record(2), requestId: "bad" }, record(3)]);
    expect(rows).toEqual(["r1", "r3"]);
    expect(rejected).toEqual(["bad"]);
  });

  it("passes an outage on, so the queue keeps the batch and retries it", async () => {
    const { resilientWriter } = await import("./audit-recorder.ts");
    const outage = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED" });
    const writer = resilientWriter(
      () => Promise.reject(outage),
      () => {},
    );
    await expect(writer([record(1)])).rejects.toBe(outage);
  });
});
