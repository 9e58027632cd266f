import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import {
  EVENT_TYPES,
  type TransactionFilters,
  type TransactionSort,
  transactionExportQuerySchema,
  transactionListQuerySchema,
} from "@/features/transactions/schema/transaction";
import { TRANSACTION_SORTS } from "@/features/transactions/schema/transaction-cursor";
import { parseQuery } from "@/platform/http/query";
import { createRng } from "@/prisma/demo-data/random";
import { filterSpans, randomFilters } from "@/test/support/random-filters";
import { expectReferencePage, referenceIds } from "@/test/support/reference-filter-sql";
import { createRouteKit } from "@/test/support/route-test-kit";
import { createTestPrisma } from "@/test/support/test-client";
import { streamPlayerTransactions } from "../../exports/data/stream-player-transactions.ts";
import { countPlayerTransactions } from "./count-player-transactions.ts";
import { listPlayerTransactions } from "./list-player-transactions.ts";

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await sql.query("DELETE FROM players WHERE id = $1", [PENDING_PLAYER]);
  await db.$disconnect();
  await sql.end();
});

const WHALE = "P000007";
const PLAYERS = ["P000003", "P000007", "P000012", "P000042", "P000001", "P000100"];

/*
 * A player of this file: 600 transactions over 120 days, every 37th pending (old and recent days alike), amounts
 * from a small set so that many tie.
 */
const PENDING_PLAYER = "PUISORT01";
beforeAll(async () => {
  await sql.query(
    `INSERT INTO players (id, name, currency, registration_date) VALUES ($1, 'Sort Fixture', 'EUR', '2025-01-01')`,
    [PENDING_PLAYER],
  );
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by,
                               created_at, completed_at, status)
     SELECT $1 || '-' || lpad(i::text, 4, '0'), $1,
            '2026-01-01T00:00:00Z'::timestamptz + (i * interval '4 hours 48 minutes') + (i % 7) * interval '1 ms',
            (ARRAY['deposit', 'bet', 'win', 'withdrawal']::event_type[])[1 + i % 4],
            (ARRAY['Card Deposit', 'Casino Bet', 'Casino Win', 'Card Withdrawal'])[1 + i % 4],
            ((i % 9) - 4) * 2.5, 'EUR', 'System',
            '2026-01-01T00:00:00Z'::timestamptz + (i * interval '4 hours 48 minutes'),
            CASE WHEN i % 37 = 0 THEN NULL
                 ELSE '2026-01-01T00:00:00Z'::timestamptz + (i * interval '4 hours 48 minutes') END,
            (CASE WHEN i % 37 = 0 THEN 'pending' ELSE 'completed' END)::transaction_status
     FROM generate_series(1, 600) AS i`,
    [PENDING_PLAYER],
  );
});
const pendingPlayer = async () => PENDING_PLAYER;

/** The query string as the route parses it. */
function query(qs: string) {
  const { limit, offset, cursor, sort, ...filters } = parseQuery(
    transactionListQuerySchema,
    new URLSearchParams(qs),
  );
  return { filters, page: { limit, offset, cursor: cursor?.key, sort } };
}

const ORDER_SQL: Record<TransactionSort, string> = {
  date_desc: "date DESC, id DESC",
  date_asc: "date ASC, id ASC",
  // The amount orders sort by size: a withdrawal of −2,073 is larger than one of −145.
  amount_desc: "abs(amount) DESC, id DESC",
  amount_asc: "abs(amount) ASC, id ASC",
};

/** Independent reference: the filters spelled out in plain SQL, ordered with ORDER BY. */
const sqlIds = (playerId: string, f: TransactionFilters, sort: TransactionSort) =>
  referenceIds(sql, playerId, f, ORDER_SQL[sort]);

/** Every page by cursor, as a client pages with next_cursor. */
async function walkByCursor(playerId: string, qs: string, limit: number): Promise<string[]> {
  const seen: string[] = [];
  let cursor: string | null = null;
  for (;;) {
    const { filters, page } = query(`${qs}&limit=${limit}${cursor ? `&cursor=${cursor}` : ""}`);
    const result = await listPlayerTransactions({ playerId, filters, ...page }, db);
    if (!result) throw new Error("player vanished");
    seen.push(...result.transactions.map((t) => t.id));
    cursor = result.nextCursor;
    if (!cursor) return seen;
  }
}

describe("listPlayerTransactions: sort, status and transaction id against plain SQL", () => {
  it("total and page equal a plain SQL count and ORDER BY slice for randomized filters and sorts", async () => {
    const rng = createRng(8008);
    const players = [...PLAYERS, await pendingPlayer()];
    const spans = await filterSpans(sql, players);
    let nonEmpty = 0;
    let deep = 0;
    for (let i = 0; i < 60; i++) {
      const { playerId, params } = randomFilters(rng, spans, {
        event_type: 0.4,
        event_name: 0.2,
        created_by: 0.2,
        status: 0.5,
        transaction_id: 0.1,
        from_date: 0.5,
        to_date: 0.5,
      });
      params.set("sort", rng.pick(TRANSACTION_SORTS));
      params.set("limit", String(rng.int(1, 100)));
      const { filters, page } = query(params.toString());
      const reference = await sqlIds(playerId, filters, page.sort);
      // Deep offsets (≥ 1,000: whole days skipped for date orders, ids first for amount orders) on the whale.
      page.offset =
        reference.length > 1_200 && rng.chance(0.5)
          ? rng.int(1_000, reference.length - 1)
          : rng.chance(0.1)
            ? reference.length + rng.int(0, 5)
            : rng.int(0, Math.max(0, reference.length - 1));
      if (page.offset >= 1_000) deep++;
      const got = await listPlayerTransactions({ playerId, filters, ...page }, db);
      expectReferencePage(got, reference, page, `${playerId}?${params}&offset=${page.offset}`);
      if (reference.length > 0) nonEmpty++;
    }
    expect(nonEmpty).toBeGreaterThan(30);
    expect(deep, "some pages should be deep").toBeGreaterThan(5);
  });

  it.each(TRANSACTION_SORTS)(
    "paging by cursor in %s visits exactly the SQL order (amount ties included)",
    async (sort) => {
      // Bets and wins of the whale: many equal amounts, so the id tie-breaker is exercised across page ends.
      const qs = `sort=${sort}&event_type=deposit,withdrawal,win`;
      const { filters } = query(qs);
      const reference = await sqlIds(WHALE, filters, sort);
      const tied = await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM (SELECT abs(amount) FROM transactions WHERE player_id = $1
         AND event_type IN ('deposit', 'withdrawal', 'win') GROUP BY abs(amount) HAVING count(*) > 1) d`,
        [WHALE],
      );
      expect(tied.rows[0]?.n, "the data should hold tied amounts").toBeGreaterThan(0);
      expect(await walkByCursor(WHALE, qs, 97)).toEqual(reference);
    },
  );

  it("amount orders sort by size: withdrawals largest first, mixed signs and equal sizes, cursor = offset pages", async () => {
    const player = await pendingPlayer();
    // Withdrawals only (all negative): the bug listed −2.5 … −10 for "largest first".
    const { filters } = query("sort=amount_desc&event_type=withdrawal");
    const list = await listPlayerTransactions(
      { playerId: WHALE, filters, limit: 50, offset: 0, sort: "amount_desc" },
      db,
    );
    const sizes = list.transactions.map((t) => Math.abs(Number(t.amount.digits)));
    const withdrawals = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM transactions WHERE player_id = $1 AND event_type = 'withdrawal'",
      [WHALE],
    );
    // A full page (or all of them), so that the checks below have rows to check.
    expect(list.transactions).toHaveLength(Math.min(50, withdrawals.rows[0]?.n ?? 0));
    expect(list.transactions.length).toBeGreaterThan(1);
    expect(list.transactions.filter((t) => !t.amount.digits.startsWith("-"))).toEqual([]);
    expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
    expect(sizes[0]).toBeGreaterThan(sizes.at(-1) ?? 0);
    // The fixture: sizes 0, 2.5, 5, 7.5, 10, each with both signs and many rows: equal sizes across page ends.
    for (const sort of ["amount_desc", "amount_asc"] as const) {
      const all = query(`sort=${sort}`);
      const reference = await sqlIds(player, all.filters, sort);
      expect(reference).toHaveLength(600);
      const byOffset: string[] = [];
      for (let offset = 0; offset < reference.length; offset += 7) {
        const got = await listPlayerTransactions(
          { playerId: player, filters: all.filters, limit: 7, offset, sort },
          db,
        );
        byOffset.push(...got.transactions.map((t) => t.id));
      }
      expect(byOffset, `${sort} by offset`).toEqual(reference);
      expect(await walkByCursor(player, `sort=${sort}`, 7), `${sort} by cursor`).toEqual(reference);
      const amounts = await listPlayerTransactions(
        { playerId: player, filters: all.filters, limit: 600, offset: 0, sort },
        db,
      );
      const signs = new Set(amounts.transactions.slice(0, 120).map((t) => t.amount.digits.startsWith("-")));
      expect(signs.size, "a size's credits and debits sit side by side").toBe(2);
    }
  });

  it("date_asc deep offsets equal plain SQL at and around every day edge", async () => {
    const { filters } = query("sort=date_asc&event_type=bet");
    const reference = await sqlIds(WHALE, filters, "date_asc");
    const dates = await sql.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM transactions WHERE player_id = $1 AND event_type = 'bet'
       GROUP BY (date AT TIME ZONE 'UTC')::date ORDER BY 1`,
      [WHALE],
    );
    // The running totals of the oldest days are where skipped whole days end.
    let edge = 0;
    const offsets = new Set<number>();
    for (const d of (
      await sql.query<{ n: number }>(
        `SELECT count(*)::int AS n FROM transactions WHERE player_id = $1 AND event_type = 'bet'
         GROUP BY (date AT TIME ZONE 'UTC')::date ORDER BY (date AT TIME ZONE 'UTC')::date`,
        [WHALE],
      )
    ).rows) {
      edge += d.n;
      if (edge >= 1_000 && edge < reference.length)
        for (const o of [edge - 1, edge, edge + 1]) offsets.add(o);
      if (offsets.size > 60) break;
    }
    expect(dates.rows.length).toBeGreaterThan(20);
    expect(offsets.size).toBeGreaterThan(30);
    for (const offset of offsets) {
      const got = await listPlayerTransactions(
        { playerId: WHALE, filters, limit: 3, offset, sort: "date_asc" },
        db,
      );
      expect(
        got?.transactions.map((t) => t.id),
        `offset ${offset}`,
      ).toEqual(reference.slice(offset, offset + 3));
    }
  });

  it("status=pending lists and counts exactly the pending transactions (and completed the rest)", async () => {
    const player = await pendingPlayer();
    const pending = await sqlIds(player, { status: "pending" }, "date_desc");
    const completed = await sqlIds(player, { status: "completed" }, "date_desc");
    expect(pending.length).toBeGreaterThan(1);
    expect(completed.length).toBeGreaterThan(pending.length);
    expect(await countPlayerTransactions({ playerId: player, filters: { status: "pending" } }, db)).toBe(
      pending.length,
    );
    expect(await countPlayerTransactions({ playerId: player, filters: { status: "completed" } }, db)).toBe(
      completed.length,
    );
    expect(await walkByCursor(player, "status=pending", 1)).toEqual(pending);
    expect(await walkByCursor(player, "status=completed&sort=amount_asc", 50)).toEqual(
      await sqlIds(player, { status: "completed" }, "amount_asc"),
    );
    // A page past the last pending row is empty and says nothing follows.
    const past = await listPlayerTransactions(
      { playerId: player, filters: { status: "pending" }, limit: 20, offset: pending.length },
      db,
    );
    expect(past).toMatchObject({ transactions: [], total: pending.length, hasMore: false });
  });

  it("transaction_id finds exactly that transaction, within the other filters", async () => {
    const [row] = (
      await sql.query<{ id: string; event_type: string }>(
        "SELECT id, event_type::text FROM transactions WHERE player_id = $1 ORDER BY id LIMIT 1 OFFSET 500",
        [WHALE],
      )
    ).rows;
    if (!row) throw new Error("no whale transaction");
    const hit = query(`transaction_id=${row.id}`);
    expect(
      await listPlayerTransactions({ playerId: WHALE, filters: hit.filters, ...hit.page }, db),
    ).toMatchObject({
      total: 1,
      transactions: [{ id: row.id }],
    });
    const other = EVENT_TYPES.find((t) => t !== row.event_type);
    const miss = query(`transaction_id=${row.id}&event_type=${other}`);
    expect(
      await listPlayerTransactions({ playerId: WHALE, filters: miss.filters, ...miss.page }, db),
    ).toMatchObject({
      total: 0,
      transactions: [],
    });
    // Another player's id is not found under this player.
    const foreign = query(`transaction_id=${row.id}`);
    expect(
      (await listPlayerTransactions({ playerId: "P000003", filters: foreign.filters, ...foreign.page }, db))
        ?.total,
    ).toBe(0);
  });
});

describe("streamPlayerTransactions: sort and status", () => {
  it.each(TRANSACTION_SORTS)(
    "exports exactly the SQL order for sort=%s with status=completed",
    async (sort) => {
      const {
        format: _format,
        sort: _sort,
        ...filters
      } = parseQuery(
        transactionExportQuerySchema,
        new URLSearchParams(`sort=${sort}&status=completed&event_type=deposit,withdrawal`),
      );
      const reference = await sqlIds(WHALE, filters, sort);
      const batches = await streamPlayerTransactions(
        { playerId: WHALE, filters, sort, batch: { first: 50, rest: 333 } },
        db,
      );
      const got: string[] = [];
      for await (const batch of batches ?? []) got.push(...batch.map((t) => t.id));
      expect(got).toEqual(reference);
    },
  );

  // The route hands `sort` to the export beside the filters: an export that dropped it would come out newest first.
  it.each(["amount_asc", "date_asc"] as const)(
    "the export route writes the rows in the order sort=%s asks for",
    async (sort) => {
      const kit = await createRouteKit(inject("databaseUrl"));
      const token = await kit.token("admin1", { roles: ["admin"] });
      const res = await kit.call(
        "GET",
        `/api/v1/players/${PENDING_PLAYER}/transactions/export?format=ndjson&status=completed&sort=${sort}`,
        { token },
      );
      expect(res.status, res.text.slice(0, 300)).toBe(200);
      const got = res.text
        .split("\n")
        .filter(Boolean)
        .map((line) => (JSON.parse(line) as { id: string }).id);
      expect(got).toEqual(await sqlIds(PENDING_PLAYER, { status: "completed" }, sort));
    },
  );

  it("exports exactly the pending transactions", async () => {
    const player = await pendingPlayer();
    const reference = await sqlIds(player, { status: "pending" }, "date_desc");
    expect(reference.length).toBeGreaterThan(1);
    const batches = await streamPlayerTransactions(
      { playerId: player, filters: { status: "pending" }, batch: { first: 1, rest: 3 } },
      db,
    );
    const got: string[] = [];
    for await (const batch of batches ?? []) got.push(...batch.map((t) => t.id));
    expect(got).toEqual(reference);
  });
});
