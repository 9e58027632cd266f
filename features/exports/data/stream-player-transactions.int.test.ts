import { afterAll, describe, expect, it } from "vitest";
import { type Transaction, transactionListQuerySchema } from "@/features/transactions/schema/transaction";
import { decodeTransactionCursor } from "@/features/transactions/schema/transaction-cursor";
import { parseQuery } from "@/platform/http/query";
import { createTestPrisma } from "@/test/support/test-client";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";
import { listPlayerTransactions } from "../../transactions/data/list-player-transactions.ts";
import { streamPlayerTransactions } from "./stream-player-transactions.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
afterAll(() => db.$disconnect());

const WHALE = "P000007";

function parse(qs: string) {
  return parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
}

/** Every row by offset pages: the reference the other two ways of reading must equal. */
async function byOffset(playerId: string, qs: string): Promise<{ rows: Transaction[]; total: number }> {
  const { limit: _l, offset: _o, cursor: _c, ...filters } = parse(qs);
  const rows: Transaction[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await listPlayerTransactions({ playerId, filters, limit: 100, offset }, db);
    if (!page) throw new Error(`no player ${playerId}`);
    rows.push(...page.transactions);
    if (!page.hasMore) return { rows, total: page.total };
  }
}

async function byCursor(playerId: string, qs: string, limit: number) {
  const { limit: _l, offset: _o, cursor: _c, ...filters } = parse(qs);
  const rows: Transaction[] = [];
  const totals = new Set<number>();
  let cursor: string | null = null;
  for (;;) {
    const key = cursor ? (decodeTransactionCursor(cursor) ?? undefined) : undefined;
    const page = await listPlayerTransactions({ playerId, filters, limit, offset: 0, cursor: key }, db);
    if (!page) throw new Error(`no player ${playerId}`);
    rows.push(...page.transactions);
    totals.add(page.total);
    expect(page.nextCursor === null).toBe(!page.hasMore);
    if (!page.nextCursor) return { rows, totals: [...totals] };
    cursor = page.nextCursor;
  }
}

const QUERIES = [
  "",
  "event_type=deposit,withdrawal",
  "event_name=Live%20Casino%20Win&from_date=2025-06-01&to_date=2026-01-31T12:00:00Z",
  "created_by=Admin&event_type=adjustment,refund",
];

describe("cursor paging", () => {
  it("visits exactly the rows of offset paging, in the same order, with the full total on every page", async () => {
    for (const [playerId, qs] of [
      [FIXTURE_PLAYER_ID, ""],
      [FIXTURE_PLAYER_ID, "event_type=deposit"],
      ...QUERIES.slice(1).map((q) => [WHALE, q] as const),
    ] as const) {
      const reference = await byOffset(playerId, qs);
      expect(reference.rows.length, `${playerId}?${qs} matches something`).toBeGreaterThan(2);
      for (const limit of [1, 7, 100]) {
        if (limit === 1 && reference.rows.length > 300) continue;
        const got = await byCursor(playerId, qs, limit);
        expect(
          got.rows.map((t) => t.id),
          `${playerId}?${qs} limit ${limit}`,
        ).toEqual(reference.rows.map((t) => t.id));
        expect(got.totals).toEqual([reference.total]);
      }
    }
  });

  it("continues after a row whose date ties with others (ties ordered by id)", async () => {
    const all = (await byOffset(FIXTURE_PLAYER_ID, "")).rows;
    const tied = all.findIndex((t, i) => i > 0 && all[i - 1]?.date === t.date);
    expect(tied).toBeGreaterThan(0);
    const { limit: _l, offset: _o, cursor: _c, ...filters } = parse("");
    const first = await listPlayerTransactions(
      { playerId: FIXTURE_PLAYER_ID, filters, limit: tied, offset: 0 },
      db,
    );
    const key = decodeTransactionCursor(first?.nextCursor ?? "");
    const next = await listPlayerTransactions(
      { playerId: FIXTURE_PLAYER_ID, filters, limit: 3, offset: 0, cursor: key ?? undefined },
      db,
    );
    expect(next?.transactions.map((t) => t.id)).toEqual(all.slice(tied, tied + 3).map((t) => t.id));
  });
});

describe("streamPlayerTransactions (the export's source)", () => {
  it("is null for an unknown player", async () => {
    await expect(
      streamPlayerTransactions({ playerId: "NO-SUCH-PLAYER", filters: {} }, db),
    ).rejects.toMatchObject(NOT_FOUND);
  });

  it("yields exactly the paged list's rows, across many batches", async () => {
    for (const qs of QUERIES) {
      const { limit: _l, offset: _o, cursor: _c, ...filters } = parse(qs);
      const reference = await byOffset(WHALE, qs);
      const batches = await streamPlayerTransactions(
        { playerId: WHALE, filters, batch: { first: 3, rest: 250 } },
        db,
      );
      const rows: Transaction[] = [];
      let count = 0;
      for await (const batch of batches ?? []) {
        expect(batch.length).toBeLessThanOrEqual(count === 0 ? 3 : 250);
        rows.push(...batch);
        count += 1;
      }
      expect(rows, qs).toEqual(reference.rows);
      expect(rows.length, qs).toBe(reference.total);
    }
  });

  it("yields nothing for a player without matches", async () => {
    const batches = await streamPlayerTransactions(
      { playerId: WHALE, filters: { created_by: "Nobody" } },
      db,
    );
    const all = [];
    for await (const batch of batches ?? []) all.push(...batch);
    expect(all).toEqual([]);
  });
});
