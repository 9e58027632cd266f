import { describe, expect, it } from "vitest";
import { AuditQueue, type AuditQueueOptions, type AuditRecord, type AuditWriter } from "./audit-queue.ts";
import { resilientWriter } from "./audit-recorder.ts";

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

/** A database whose commits the test releases by hand, so batches can be watched forming. */
function manualDatabase() {
  const rows: AuditRecord[] = [];
  const batches: number[] = [];
  const commits: Array<(error?: Error) => void> = [];
  const writer: AuditWriter = (records) =>
    new Promise((resolve, reject) => {
      batches.push(records.length);
      commits.push((error) => {
        if (error) return reject(error);
        rows.push(...records);
        resolve(undefined);
      });
    });
  const commitNext = async (error?: Error) => {
    await settle();
    commits.shift()?.(error);
    await settle();
  };
  return { rows, batches, writer, commitNext };
}

const settle = () => new Promise((r) => setImmediate(r));
const options = (o: Partial<AuditQueueOptions> = {}): AuditQueueOptions => ({
  batchSize: 100,
  maxPending: 1_000,
  ...o,
});

describe("AuditQueue (group commit)", () => {
  it("settles a record's promise only once its batch is committed", async () => {
    const db = manualDatabase();
    const queue = new AuditQueue(db.writer, options());
    let committed = false;
    const done = queue.add(record(1)).then(() => {
      committed = true;
    });
    await settle();
    expect(db.batches).toEqual([1]);
    expect(committed).toBe(false);
    expect(queue.pending).toBe(1);
    await db.commitNext();
    await done;
    expect(committed).toBe(true);
    expect(db.rows.map((r) => r.requestId)).toEqual(["r1"]);
    expect(queue.pending).toBe(0);
  });

  it("gathers the records that arrive during a commit into the next INSERT", async () => {
    const db = manualDatabase();
    const queue = new AuditQueue(db.writer, options());
    const first = [1, 2, 3].map((n) => queue.add(record(n)));
    await settle();
    const second = [4, 5, 6, 7, 8].map((n) => queue.add(record(n)));
    await settle();
    expect(db.batches).toEqual([3]); // one commit at a time: the next five wait together
    await db.commitNext();
    await Promise.all(first);
    expect(db.batches).toEqual([3, 5]);
    await db.commitNext();
    await Promise.all(second);
    expect(db.rows).toHaveLength(8);
    expect(queue.written).toBe(8);
  });

  it("splits what waits into batches of batchSize", async () => {
    const db = manualDatabase();
    const queue = new AuditQueue(db.writer, options({ batchSize: 4 }));
    const all = Array.from({ length: 10 }, (_, n) => queue.add(record(n)));
    for (let i = 0; i < 3; i++) await db.commitNext();
    await Promise.all(all);
    expect(db.batches).toEqual([4, 4, 2]);
  });

  it("rejects every record of a batch whose write failed, and goes on with the next", async () => {
    const db = manualDatabase();
    const queue = new AuditQueue(db.writer, options());
    const failed = [1, 2].map((n) =>
      queue.add(record(n)).then(
        () => "ok",
        (e: Error) => e.message,
      ),
    );
    await settle();
    const later = queue.add(record(3));
    await db.commitNext(new Error("connect ECONNREFUSED"));
    expect(await Promise.all(failed)).toEqual(["connect ECONNREFUSED", "connect ECONNREFUSED"]);
    await db.commitNext();
    await later;
    expect(db.rows.map((r) => r.requestId)).toEqual(["r3"]);
    expect(queue.failed).toBe(2);
  });

  it("is full at maxPending, and not any more once the records are written", async () => {
    const db = manualDatabase();
    const queue = new AuditQueue(db.writer, options({ maxPending: 3 }));
    const all = [1, 2, 3].map((n) => queue.add(record(n)));
    expect(queue.isFull()).toBe(true);
    await db.commitNext();
    await Promise.all(all);
    expect(queue.isFull()).toBe(false);
  });

  it("flush waits for everything added so far", async () => {
    let written = 0;
    const queue = new AuditQueue(
      async (records) => {
        await new Promise((r) => setTimeout(r, 5));
        written += records.length;
        return undefined;
      },
      options({ batchSize: 3 }),
    );
    for (let n = 0; n < 7; n++) void queue.add(record(n));
    await queue.flush();
    expect(written).toBe(7);
  });
});

describe("resilientWriter", () => {
  const refusing = (bad: Set<string>) => async (records: AuditRecord[]) => {
    if (records.some((r) => bad.has(r.requestId))) throw new Error("invalid input syntax for type json");
  };

  it("on a rejected batch writes one by one and names only the rejected records", async () => {
    const writer = resilientWriter(refusing(new Set(["r2"])));
    const records = [1, 2, 3].map(record);
    const rejected = await writer(records);
    expect([...(rejected?.keys() ?? [])].map((r) => r.requestId)).toEqual(["r2"]);
  });

  it("throws an outage for the whole batch", async () => {
    const writer = resilientWriter(async () => {
      throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" });
    });
    await expect(writer([record(1), record(2)])).rejects.toThrow("ECONNREFUSED");
  });

  it("a queue on it fails only the read whose record the database refuses", async () => {
    const queue = new AuditQueue(resilientWriter(refusing(new Set(["r2"]))), options());
    const outcomes = await Promise.all(
      [1, 2, 3].map((n) =>
        queue.add(record(n)).then(
          () => "ok",
          () => "refused",
        ),
      ),
    );
    expect(outcomes).toEqual(["ok", "refused", "ok"]);
  });
});
