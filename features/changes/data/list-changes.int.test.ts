import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { type Change, FILTERED_CHANGES_SCAN } from "@/features/changes/schema/change";
import { createPrismaClient } from "@/platform/db/client";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { createTestPrisma } from "@/test/support/test-client";
import { listChanges } from "./list-changes.ts";

/*
 * The change log's semantics on the shared integration database (both PGlite and PostgreSQL), and, on
 * PostgreSQL (real concurrent connections; the embedded server serializes its clients), commit order and a
 * poller that never skips a change while several writers commit at once.
 */

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 8 });
afterAll(async () => {
  // The shared database keeps the demo data the other tests rely on: take this file's players away again.
  await sql.query("DELETE FROM players WHERE id LIKE 'PFEED%'");
  await db.$disconnect();
  await sql.end();
});

const tail = async () => (await listChanges({ after: 0, limit: 1 }, db)).tail;

/** Every change after `after`, page by page. */
async function readAll(after: number, limit = 500): Promise<Change[]> {
  const out: Change[] = [];
  let next = after;
  for (;;) {
    const page = await listChanges({ after: next, limit }, db);
    out.push(...page.changes);
    next = page.next;
    if (!page.hasMore) return out;
  }
}

const insertPlayer = (client: pg.ClientBase | pg.Pool, id: string) =>
  client.query(
    `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Feed Test', 'EUR', now())`,
    [id],
  );
const insertTransaction = (
  client: pg.ClientBase | pg.Pool,
  id: string,
  playerId: string,
  status = "pending",
) =>
  client.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
       completed_at, status)
     VALUES ($1, $2, now() - interval '30 days', 'deposit', 'Card Deposit', 10, 'EUR', 'System', now(),
       CASE WHEN $3 = 'completed' THEN now() END, $3::transaction_status)`,
    [id, playerId, status],
  );
const complete = (client: pg.ClientBase | pg.Pool, id: string) =>
  client.query(`UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = $1`, [id]);

describe("the change log", () => {
  it("logs creations and changes once per database transaction, a no-op update not at all, and keeps the tail", async () => {
    const start = await tail();
    const client = await sql.connect();
    try {
      await client.query("BEGIN");
      await insertPlayer(client, "PFEED0001");
      await insertTransaction(client, "TFEED0001", "PFEED0001");
      await complete(client, "TFEED0001");
      await client.query(`UPDATE players SET name = 'Renamed' WHERE id = 'PFEED0001'`);
      await client.query("COMMIT");
      await client.query(`UPDATE players SET name = 'Renamed' WHERE id = 'PFEED0001'`); // same value: no change
      await complete(client, "TFEED0001"); // completed_at moves: a change
      await client.query(`DELETE FROM transactions WHERE id = 'TFEED0001'`);
    } finally {
      client.release();
    }
    const changes = await readAll(start);
    expect(changes.map((c) => [c.kind, c.player_id, c.transaction_id, c.status])).toEqual([
      ["player.created", "PFEED0001", null, null],
      ["transaction.created", "PFEED0001", "TFEED0001", "completed"],
      ["transaction.updated", "PFEED0001", "TFEED0001", "completed"],
      ["transaction.deleted", "PFEED0001", "TFEED0001", null],
    ]);
    const positions = changes.map((c) => c.position);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    // The tail: an empty page keeps the position, never null.
    const end = positions.at(-1) ?? 0;
    const empty = await listChanges({ after: end, limit: 10 }, db);
    expect(empty).toEqual({
      changes: [],
      next: end,
      hasMore: false,
      tail: end,
      feed: expect.stringMatching(/^[0-9a-f]{32}$/),
      prunedThrough: expect.any(Number),
    });
    const row = await sql.query<{ n: string }>("SELECT count(*) AS n FROM change_commits");
    expect(row.rows[0]?.n).toBe("0");
  });

  it("stamps updated_at on changed rows only", async () => {
    await insertPlayer(sql, "PFEED0002");
    const before = await sql.query<{ u: Date }>("SELECT updated_at AS u FROM players WHERE id = 'PFEED0002'");
    await new Promise((r) => setTimeout(r, 5));
    await sql.query(`UPDATE players SET name = 'Feed Test' WHERE id = 'PFEED0002'`);
    const same = await sql.query<{ u: Date }>("SELECT updated_at AS u FROM players WHERE id = 'PFEED0002'");
    expect(same.rows[0]?.u).toEqual(before.rows[0]?.u);
    await sql.query(`UPDATE players SET blocked = true WHERE id = 'PFEED0002'`);
    const moved = await sql.query<{ u: Date }>("SELECT updated_at AS u FROM players WHERE id = 'PFEED0002'");
    expect(moved.rows[0]?.u.getTime()).toBeGreaterThan(before.rows[0]?.u.getTime() ?? 0);
  });

  it("logs a statement of more than 10,000 transactions as one entry per player, with changed_at = updated_at", async () => {
    await insertPlayer(sql, "PFEED0003");
    const start = await tail();
    await sql.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
         completed_at, status)
       SELECT 'TFEEDBULK' || g, 'PFEED0003', now(), 'bet', 'Casino Bet', -1, 'EUR', 'System', now(), now(), 'completed'
       FROM generate_series(1, 10001) g`,
    );
    const changes = await readAll(start);
    expect(changes.map((c) => [c.kind, c.player_id])).toEqual([["player.transactions_changed", "PFEED0003"]]);
    const since = changes[0]?.changed_at ?? "";
    const { rows } = await sql.query<{ n: string }>(
      "SELECT count(*) AS n FROM transactions WHERE player_id = 'PFEED0003' AND updated_at >= $1",
      [since],
    );
    expect(rows[0]?.n).toBe("10001");
  });
});

describe("a filtered page", () => {
  it("examines at most FILTERED_CHANGES_SCAN entries, and its next moves past every entry it left out", async () => {
    const start = await tail();
    await insertPlayer(sql, "PFEEDSCAN");
    // Two statements of 5,050 transactions each: one entry per transaction (under the 10,000 of a bulk entry).
    for (const part of [0, 1]) {
      await sql.query(
        `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
           created_at, status)
         SELECT 'TFEEDSCAN' || $1 || lpad(i::text, 5, '0'), 'PFEEDSCAN', now(), 'deposit', 'Card Deposit', 1, 'EUR',
                'System', now(), 'pending'
         FROM generate_series(1, 5050) i`,
        [part],
      );
    }
    const all = await readAll(start, 1000);
    expect(all).toHaveLength(1 + 10_100);
    const last = all.at(-1)?.position ?? 0;
    const boundary = all[FILTERED_CHANGES_SCAN - 1]?.position ?? 0;

    // Nothing matches: the first page stops after the entries it may examine, the second reaches the end.
    const first = await listChanges({ after: start, limit: 1000, playerId: "PFEEDSCAN-NOBODY" }, db);
    expect(first).toMatchObject({ changes: [], next: boundary, hasMore: true });
    const second = await listChanges({ after: first.next, limit: 1000, playerId: "PFEEDSCAN-NOBODY" }, db);
    expect(second).toMatchObject({ changes: [], next: last, hasMore: false });

    // A match is listed and the page still stops at its window's end; a full page stops at its last entry.
    const kinds = ["player.created"] as const;
    const created = await listChanges({ after: start, limit: 1000, kinds }, db);
    expect(created.changes.map((c) => c.player_id)).toEqual(["PFEEDSCAN"]);
    expect(created).toMatchObject({ next: boundary, hasMore: true });
    const mine = await listChanges(
      { after: start, limit: 1000, playerId: "PFEEDSCAN", kinds: ["transaction.created"] },
      db,
    );
    expect(mine.changes).toHaveLength(1000);
    expect(mine.next).toBe(mine.changes.at(-1)?.position);
  });
});

describe("the feed's identity and pruning horizon", () => {
  // A database of its own: these tests delete entries and rotate the feed.
  let other: { url: string; stop(): Promise<void> };
  let otherDb: ReturnType<typeof createPrismaClient>;
  let otherSql: pg.Pool;
  beforeAll(async () => {
    other = await freshTestDatabase(inject("databaseKind"), "feed_identity");
    otherDb = createPrismaClient(other.url, 2);
    otherSql = new pg.Pool({ connectionString: other.url, max: 2 });
  });
  afterAll(async () => {
    await otherDb?.$disconnect();
    await otherSql?.end();
    await other?.stop();
  });
  const page = (after = 0) => listChanges({ after, limit: 10 }, otherDb);

  it("names the database's feed: the same on every read, another for another database, even with its epoch copied", async () => {
    const mine = (await listChanges({ after: 0, limit: 1 }, db)).feed;
    const theirs = (await page()).feed;
    expect(theirs).toMatch(/^[0-9a-f]{32}$/);
    expect(theirs).not.toBe(mine);
    await insertPlayer(otherSql, "PFEEDI01");
    expect((await page()).feed).toBe(theirs);
    // The stored epoch is what a dump carries: the same epoch in another database still names another feed.
    const { rows } = await sql.query<{ epoch: string }>("SELECT epoch::text FROM change_feed");
    await otherSql.query("UPDATE change_feed SET epoch = $1", [rows[0]?.epoch]);
    const copied = (await page()).feed;
    expect(copied).not.toBe(mine);
    expect(copied).not.toBe(theirs); // the epoch is part of the name
  });

  it("moves the horizon to the highest position any DELETE took, and keeps the tail there when the log is emptied", async () => {
    await insertPlayer(otherSql, "PFEEDI02");
    await insertPlayer(otherSql, "PFEEDI03");
    const before = await page();
    const [first, second] = before.changes.slice(-2).map((c) => c.position) as [number, number];
    await otherSql.query("DELETE FROM changes WHERE position = $1", [first]);
    expect((await page()).prunedThrough).toBe(first);
    await otherSql.query("DELETE FROM changes WHERE position < $1", [first]); // lower: the horizon stays
    expect((await page()).prunedThrough).toBe(first);
    await otherSql.query("DELETE FROM changes");
    const emptied = await page(second);
    expect(emptied).toMatchObject({ changes: [], prunedThrough: second, tail: second, next: second });
    expect(emptied.feed).toBe(before.feed); // pruning keeps the feed
  });

  it("rotates the feed on rotate_change_feed() and on a TRUNCATE of the log", async () => {
    const start = (await page()).feed;
    const { rows } = await otherSql.query<{ feed: string }>("SELECT rotate_change_feed() AS feed");
    const rotated = (await page()).feed;
    expect(rotated).not.toBe(start);
    expect(rows[0]?.feed).toBe(rotated);
    await insertPlayer(otherSql, "PFEEDI04");
    const { tail } = await page();
    await otherSql.query("TRUNCATE changes");
    const truncated = await page();
    expect(truncated.feed).not.toBe(rotated);
    expect(truncated.prunedThrough).toBe(tail); // the positions handed out so far are gone
  });

  it("keeps `reset` in every filtered page: a reset concerns every player and every kind", async () => {
    await insertPlayer(otherSql, "PFEEDI05");
    const { tail } = await page();
    await otherSql.query("TRUNCATE players CASCADE"); // what the seed and db:generate do: one `reset` entry
    for (const filter of [{ playerId: "PFEEDI05" }, { kinds: ["transaction.created"] as const }]) {
      const filtered = await listChanges({ after: tail, limit: 10, ...filter }, otherDb);
      expect(filtered.changes.map((c) => c.kind)).toEqual(["reset"]);
    }
  });
});

describe.runIf(inject("databaseKind") === "postgres")("the change log under concurrency (PostgreSQL)", () => {
  it("lists changes in commit order, not in the order the writes began", async () => {
    const start = await tail();
    const first = await sql.connect();
    const second = await sql.connect();
    try {
      await first.query("BEGIN");
      await insertPlayer(first, "PFEED0010"); // began first …
      await second.query("BEGIN");
      await insertPlayer(second, "PFEED0011");
      await second.query("COMMIT"); // … committed second
      const seen = await readAll(start);
      expect(seen.map((c) => c.player_id)).toEqual(["PFEED0011"]);
      await first.query("COMMIT");
    } finally {
      first.release();
      second.release();
    }
    const all = await readAll(start);
    expect(all.map((c) => c.player_id)).toEqual(["PFEED0011", "PFEED0010"]);
  });

  it("never lets a poller skip a change while several writers commit concurrently", async () => {
    const start = await tail();
    const WRITERS = 5;
    const ROUNDS = 30;
    let writing = true;
    const writer = async (w: number) => {
      const client = await sql.connect();
      try {
        for (let r = 0; r < ROUNDS; r++) {
          const p = `PFEEDC${w}_${r}`;
          await client.query("BEGIN");
          await insertPlayer(client, p);
          await new Promise((res) => setTimeout(res, Math.random() * 4)); // hold the transaction open a while
          await insertTransaction(client, `TFEEDC${w}_${r}`, p);
          if (r > 0) await complete(client, `TFEEDC${w}_${r - 1}`);
          if (Math.random() < 0.1) await client.query("ROLLBACK");
          else await client.query("COMMIT");
        }
      } finally {
        client.release();
      }
    };
    const polled: Change[] = [];
    const poller = async () => {
      let next = start;
      // Poll until a poll that STARTED after the writers were done finds nothing new. (A poll already running when
      // the last commit landed can come back empty without having seen it: its snapshot is older.)
      for (;;) {
        const writersDone = !writing;
        const page = await listChanges({ after: next, limit: 7 }, db);
        polled.push(...page.changes);
        next = page.next;
        if (writersDone && page.changes.length === 0) return;
      }
    };
    const polling = poller();
    await Promise.all(Array.from({ length: WRITERS }, (_, w) => writer(w)));
    writing = false;
    await polling;
    const truth = await readAll(start);
    expect(truth.length).toBeGreaterThan(WRITERS * ROUNDS);
    // The poller saw exactly the committed changes, in the same (increasing) order: none skipped, none twice.
    expect(polled.map((c) => c.position)).toEqual(truth.map((c) => c.position));
    // And the log holds every committed write: each committed player has its creation logged.
    const { rows } = await sql.query<{ id: string }>("SELECT id FROM players WHERE id LIKE 'PFEEDC%'");
    const created = new Set(truth.filter((c) => c.kind === "player.created").map((c) => c.player_id));
    expect(rows.map((r) => r.id).filter((id) => !created.has(id))).toEqual([]);
  });
});
