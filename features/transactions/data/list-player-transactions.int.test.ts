import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import {
  CREATORS,
  EVENT_TYPES,
  type TransactionFilters,
  transactionListQuerySchema,
} from "@/features/transactions/schema/transaction";
import { parseQuery } from "@/platform/http/query";
import { createRng } from "@/prisma/demo-data/random";
import { filterSpans, randomFilters } from "@/test/support/random-filters";
import { expectReferencePage, referenceIds } from "@/test/support/reference-filter-sql";
import { createTestPrisma } from "@/test/support/test-client";
import {
  EMPTY_FIXTURE_PLAYER_ID,
  FIXTURE_BOUNDS,
  FIXTURE_PLAYER_ID,
  FIXTURE_TRANSACTIONS,
  type FixtureTransaction,
} from "@/test/support/test-fixtures";
import { listPlayerTransactions } from "./list-player-transactions.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
afterAll(async () => {
  await db.$disconnect();
  await sql.end();
});

/** The query string as the route would parse it. */
function query(qs: string) {
  const { limit, offset, ...filters } = parseQuery(transactionListQuerySchema, new URLSearchParams(qs));
  return { filters, page: { limit, offset } };
}

async function ids(qs: string, playerId = FIXTURE_PLAYER_ID) {
  const { filters, page } = query(qs);
  const result = await listPlayerTransactions({ playerId, filters, ...page }, db);
  if (!result) throw new Error(`no player ${playerId}`);
  return {
    ids: result.transactions.map((t) => t.id),
    total: result.total,
    transactions: result.transactions,
  };
}

/** Independent reference over the fixture list: filter, then date DESC, id DESC. */
function expected(keep: (t: FixtureTransaction, at: number) => boolean = () => true): string[] {
  return FIXTURE_TRANSACTIONS.map((t) => ({ t, at: Date.parse(t.date) }))
    .filter(({ t, at }) => keep(t, at))
    .sort((a, b) => b.at - a.at || (a.t.id < b.t.id ? 1 : a.t.id > b.t.id ? -1 : 0))
    .map(({ t }) => t.id);
}
const ALL = expected();
const ms = (iso: string) => Date.parse(iso);

describe("listPlayerTransactions: players", () => {
  it("is null for an unknown player and an empty page for a player without transactions", async () => {
    await expect(
      listPlayerTransactions({ playerId: "NO-SUCH-PLAYER", filters: {}, limit: 20, offset: 0 }, db),
    ).rejects.toMatchObject(NOT_FOUND);
    expect(
      await listPlayerTransactions(
        { playerId: EMPTY_FIXTURE_PLAYER_ID, filters: {}, limit: 20, offset: 0 },
        db,
      ),
    ).toEqual({
      transactions: [],
      total: 0,
      hasMore: false,
      nextCursor: null,
    });
  });

  it("never returns another player's transactions", async () => {
    const { transactions } = await ids("limit=100");
    // All of the player's rows, so that `every` has something to check.
    expect(transactions).toHaveLength(FIXTURE_TRANSACTIONS.length);
    expect(transactions.filter((t) => !t.id.startsWith("FX"))).toEqual([]);
  });
});

describe("listPlayerTransactions: order", () => {
  it("returns every fixture newest first, ties by id descending", async () => {
    const got = await ids("limit=100");
    expect(got.total).toBe(FIXTURE_TRANSACTIONS.length);
    expect(got.ids).toEqual(ALL);
    // The three deposits at one instant (written with three different offsets) come out by id DESC.
    const tie = got.transactions.filter((t) => t.date === FIXTURE_BOUNDS.tie).map((t) => t.id);
    expect(tie).toEqual(["FX0103", "FX0102", "FX0101"]);
    expect(got.ids.indexOf("FX0102") - got.ids.indexOf("FX0103")).toBe(1);
  });

  it("writes times in UTC with milliseconds whatever offset they were stored with", async () => {
    const { transactions } = await ids("limit=100");
    const byId = new Map(transactions.map((t) => [t.id, t]));
    expect(byId.get("FX0101")?.date).toBe("2025-03-01T10:00:00.000Z");
    expect(byId.get("FX0305")?.date).toBe("2025-03-10T12:00:00.001Z");
    expect(byId.get("FX0202")?.date).toBe("2025-03-06T13:00:00.000Z");
    expect(byId.get("FX0207")?.completed_at).toBeNull();
    expect(byId.get("FX0401")?.completed_at).toBe("2025-03-12T15:00:00.000Z");
    expect(byId.get("FX0203")?.created_at).toBe("2025-03-07T09:10:00.000Z");
  });

  it("keeps exact decimal digits", async () => {
    const { transactions } = await ids("limit=100");
    const amount = (id: string) => transactions.find((t) => t.id === id)?.amount.digits;
    expect([amount("FX0101"), amount("FX0102"), amount("FX0103")]).toEqual(["0.1", "0.2", "0.3"]);
    expect(amount("FX0201")).toBe("123456789012.12345678");
    expect(amount("FX0202")).toBe("-0.00000001");
  });
});

describe("listPlayerTransactions: filters", () => {
  it("event_type: each type alone, and several ORed", async () => {
    for (const type of EVENT_TYPES) {
      const got = await ids(`event_type=${type}&limit=100`);
      expect(got.ids, type).toEqual(expected((t) => t.event_type === type));
      expect(got.ids.length, `fixtures cover ${type}`).toBeGreaterThan(0);
    }
    expect((await ids("event_type=bet,refund&limit=100")).ids).toEqual(
      expected((t) => t.event_type === "bet" || t.event_type === "refund"),
    );
    expect((await ids("event_type=bet&event_type=bet&limit=100")).ids).toEqual(
      expected((t) => t.event_type === "bet"),
    );
  });

  it("event_name: exact and case-sensitive, spaces included, several ORed", async () => {
    expect((await ids("event_name=Casino%20Bet&limit=100")).ids).toEqual([
      "FX0305",
      "FX0302",
      "FX0301",
      "FX0205",
    ]);
    expect((await ids("event_name=casino%20bet")).total).toBe(0);
    expect((await ids("event_name=Casino")).total).toBe(0);
    // Whitespace around list items is dropped (so `a, b` works): a padded name matches the plain one.
    expect((await ids("event_name=%20Casino%20Bet%20&limit=100")).ids).toEqual([
      "FX0305",
      "FX0302",
      "FX0301",
      "FX0205",
    ]);
    expect((await ids("event_name=Casino%20Bet,Live%20Casino%20Bet&limit=100")).ids).toEqual(
      expected((t) => t.event_name === "Casino Bet" || t.event_name === "Live Casino Bet"),
    );
    expect((await ids("event_name=Casino%25")).total).toBe(0);
  });

  it("created_by: exact creator", async () => {
    for (const creator of CREATORS) {
      const got = await ids(`created_by=${encodeURIComponent(creator)}&limit=100`);
      expect(got.ids, creator).toEqual(expected((t) => t.created_by === creator));
      expect(got.total, `fixtures cover ${creator}`).toBeGreaterThan(0);
    }
    expect((await ids("created_by=system")).total).toBe(0);
    expect((await ids("created_by=VIP")).total).toBe(0);
  });

  it("date-time bounds are inclusive on both ends; 1 ms outside is out", async () => {
    const { from, to } = FIXTURE_BOUNDS;
    expect((await ids(`from_date=${from}&to_date=${to}`)).ids).toEqual(["FX0304", "FX0303", "FX0302"]);
    expect((await ids(`from_date=${from}`)).ids).toEqual(expected((_, at) => at >= ms(from)));
    expect((await ids(`from_date=${from}&limit=100`)).ids).not.toContain("FX0301");
    expect((await ids(`to_date=${to}&limit=100`)).ids).toEqual(expected((_, at) => at <= ms(to)));
    expect((await ids("from_date=2025-03-10T00:00:00.001Z&to_date=2025-03-10T11:59:59.999Z")).ids).toEqual([
      "FX0303",
    ]);
    expect((await ids("from_date=2025-03-09T23:59:59.999Z&to_date=2025-03-10T12:00:00.001Z")).ids).toEqual([
      "FX0305",
      "FX0304",
      "FX0303",
      "FX0302",
      "FX0301",
    ]);
  });

  it("bounds given with offsets mean the same instants", async () => {
    const got = await ids("from_date=2025-03-10T01:00:00%2B01:00&to_date=2025-03-10T07:00:00-05:00");
    expect(got.ids).toEqual(["FX0304", "FX0303", "FX0302"]);
    expect(
      (await ids("from_date=2025-03-10T05:30:00%2B0530&to_date=2025-03-10T05:30:00%2B05:30")).ids,
    ).toEqual(["FX0302"]);
  });

  it("a date-only to_date includes its whole UTC day, up to 23:59:59.999", async () => {
    const day = FIXTURE_BOUNDS.day;
    expect((await ids(`from_date=${day}&to_date=${day}`)).ids).toEqual([
      "FX0306",
      "FX0305",
      "FX0304",
      "FX0303",
      "FX0302",
    ]);
    expect((await ids(`to_date=${day}&limit=100`)).ids).toEqual(
      expected((_, at) => at < ms("2025-03-11T00:00:00Z")),
    );
    expect((await ids("to_date=2025-03-09&limit=100")).ids[0]).toBe("FX0301");
    expect((await ids("from_date=2025-03-11")).ids).toEqual(["FX0401", "FX0307"]);
  });

  it("sub-millisecond bounds: from rounds up, to truncates", async () => {
    expect((await ids("from_date=2025-03-09T23:59:59.9991Z&to_date=2025-03-10T12:00:00.0009Z")).ids).toEqual([
      "FX0304",
      "FX0303",
      "FX0302",
    ]);
    expect(
      (await ids("from_date=2025-03-09T23:59:59.999000Z&to_date=2025-03-10T00:00:00.000999Z")).ids,
    ).toEqual(["FX0302", "FX0301"]);
  });

  it("the widest valid bounds work on the database (year 1 to the end of 9999)", async () => {
    expect((await ids("from_date=0001-01-01&to_date=9999-12-31&limit=100")).ids).toEqual(ALL);
    expect(
      (await ids("from_date=0001-01-01T00:00:00Z&to_date=9999-12-31T23:59:59.999Z&limit=100")).ids,
    ).toEqual(ALL);
    // Rounds up into year 10000: a valid, empty range rather than a database error.
    expect(await ids("from_date=9999-12-31T23:59:59.9999Z")).toMatchObject({ ids: [], total: 0 });
    expect(await ids("from_date=9999-12-31T23:59:59-23:59")).toMatchObject({ ids: [], total: 0 });
  });

  it("different filters combine with AND", async () => {
    expect((await ids("event_type=bet&created_by=System&from_date=2025-03-10")).ids).toEqual([
      "FX0306",
      "FX0305",
      "FX0302",
    ]);
    expect((await ids("event_type=win,refund&created_by=Admin")).ids).toEqual(["FX0206"]);
    expect((await ids("event_type=deposit&event_name=Card%20Deposit&to_date=2025-03-05")).ids).toEqual([
      "FX0101",
    ]);
    expect((await ids("event_type=deposit&event_name=Casino%20Bet")).total).toBe(0);
    expect(
      (
        await ids(
          "event_type=withdrawal,deposit&event_name=Card%20Deposit,Card%20Withdrawal&from_date=2025-03-09T09:00:00Z&to_date=2025-03-09T10:00:00Z",
        )
      ).ids,
    ).toEqual(["FX0208", "FX0207"]);
  });
});

describe("listPlayerTransactions: paging", () => {
  it("limit and offset slice the ordered list; total is the whole count", async () => {
    for (const [limit, offset] of [
      [1, 0],
      [2, 1],
      [5, 7],
      [3, 17],
      [100, 0],
      [20, 18],
    ] as const) {
      const got = await ids(`limit=${limit}&offset=${offset}`);
      expect(got.ids, `${limit}/${offset}`).toEqual(ALL.slice(offset, offset + limit));
      expect(got.total).toBe(ALL.length);
    }
  });

  it("an offset past the end is an empty page with the true total", async () => {
    for (const offset of [ALL.length, ALL.length + 1, 1_000_000_000]) {
      expect(await ids(`offset=${offset}`)).toMatchObject({ ids: [], total: ALL.length });
    }
  });

  it("walking the pages visits each fixture once, ties split across pages included", async () => {
    const seen: string[] = [];
    for (let offset = 0; offset < ALL.length; offset += 2)
      seen.push(...(await ids(`limit=2&offset=${offset}`)).ids);
    expect(seen).toEqual(ALL);
  });
});

/* ---- Against plain SQL on the demo data ---- */

const sqlIds = (playerId: string, f: TransactionFilters) => referenceIds(sql, playerId, f);

async function walk(playerId: string, qs: string, limit: number): Promise<string[]> {
  const all: string[] = [];
  for (let offset = 0; ; offset += limit) {
    const { filters } = query(qs);
    const page = await listPlayerTransactions({ playerId, filters, limit, offset }, db);
    if (!page) throw new Error("player vanished");
    all.push(...page.transactions.map((t) => t.id));
    if (offset + page.transactions.length >= page.total) break;
  }
  return all;
}

describe("listPlayerTransactions against plain SQL (demo data)", () => {
  it("walking every page of a heavy player never overlaps or skips", async () => {
    const reference = await sqlIds("P000003", {});
    expect(reference.length).toBeGreaterThan(2_000);
    const walked = await walk("P000003", "", 100);
    expect(walked.length).toBe(reference.length);
    expect(new Set(walked).size).toBe(walked.length);
    expect(walked).toEqual(reference);
  });

  it("walking bonus/adjustment pages with an odd page size keeps same-instant pairs in order", async () => {
    // A converted bonus leaves a bonus and an adjustment at the same instant: the demo player with most of them.
    const { rows } = await sql.query<{ player_id: string; n: string }>(
      `SELECT player_id, count(*) AS n FROM (
         SELECT player_id, date FROM transactions WHERE event_type IN ('bonus','adjustment')
         GROUP BY player_id, date HAVING count(*) > 1) d
       GROUP BY player_id ORDER BY count(*) DESC, player_id LIMIT 1`,
    );
    const playerId = rows[0]?.player_id ?? "";
    expect(Number(rows[0]?.n), "a player has transactions sharing an instant").toBeGreaterThan(2);
    const qs = "event_type=bonus,adjustment";
    const reference = await sqlIds(playerId, query(qs).filters);
    expect(await walk(playerId, qs, 7)).toEqual(reference);
  });

  it("walking all of the whale's 24,000 transactions visits each exactly once", async () => {
    const reference = await sqlIds("P000007", {});
    expect(reference.length).toBeGreaterThanOrEqual(20_000);
    const walked = await walk("P000007", "", 100);
    expect(new Set(walked).size).toBe(reference.length);
    expect(walked).toEqual(reference);
  });

  it("total and page equal a plain SQL count and slice for randomized filters", async () => {
    const rng = createRng(4242);
    const players = ["P000003", "P000007", "P000012", "P000042", "P000001", "P000100"];
    const spans = await filterSpans(sql, players);
    let nonEmpty = 0;
    for (let i = 0; i < 40; i++) {
      const { playerId, params } = randomFilters(rng, spans, {
        event_type: 0.5,
        event_name: 0.3,
        created_by: 0.3,
        from_date: 0.6,
        to_date: 0.6,
      });
      params.set("limit", String(rng.int(1, 100)));
      const { filters, page } = query(params.toString());
      const reference = await sqlIds(playerId, filters);
      page.offset = rng.chance(0.2)
        ? reference.length + rng.int(0, 5)
        : rng.int(0, Math.max(0, reference.length - 1));
      const got = await listPlayerTransactions({ playerId, filters, ...page }, db);
      expectReferencePage(got, reference, page, `${playerId}?${params}&offset=${page.offset}`);
      if (reference.length > 0) nonEmpty++;
    }
    expect(nonEmpty, "most random filters should match something").toBeGreaterThan(20);
  });
});

describe("listPlayerTransactions: deep offsets skip whole days by their counts", () => {
  const WHALE_ID = "P000007";

  /** Offsets where a UTC day of the reference starts and ends, and 1 either side. */
  function dayEdges(rows: { date: Date }[]): number[] {
    const edges = new Set<number>();
    for (let i = 1; i < rows.length; i++) {
      const prev = rows[i - 1]?.date.toISOString().slice(0, 10);
      if (prev !== rows[i]?.date.toISOString().slice(0, 10)) for (const d of [-1, 0, 1]) edges.add(i + d);
    }
    return [...edges].filter((o) => o >= 1_000);
  }

  it("equals a plain SQL slice at and around every day edge, for filters with partial days at both ends", async () => {
    const queries = [
      "",
      "event_type=bet,win",
      "created_by=System&event_type=bet",
      // Both bounds inside a day: the newest day is partial (counted row by row), the oldest too (never skipped).
      "from_date=2025-02-03T17:20:00.123Z&to_date=2026-01-20T06:30:00Z",
      "to_date=2025-12-31&event_type=bet",
    ];
    let checked = 0;
    for (const qs of queries) {
      const { filters } = query(qs);
      const reference = await sqlIds(WHALE_ID, filters);
      const { rows } = await sql.query<{ date: Date }>(
        `SELECT date FROM transactions WHERE id = ANY($1) ORDER BY date DESC, id DESC`,
        [reference],
      );
      const edges = dayEdges(rows);
      expect(edges.length, `${qs} has day edges past offset 1,000`).toBeGreaterThan(3);
      // Every edge would be slow to walk; a spread of them, plus the very end.
      const picked = edges.filter((_, i) => i % Math.ceil(edges.length / 25) === 0);
      for (const offset of [...picked, reference.length - 1, reference.length]) {
        const got = await listPlayerTransactions({ playerId: WHALE_ID, filters, limit: 3, offset }, db);
        expect(
          got?.transactions.map((t) => t.id),
          `${qs} offset ${offset}`,
        ).toEqual(reference.slice(offset, offset + 3));
        expect(got?.total).toBe(reference.length);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(50);
  });
});
