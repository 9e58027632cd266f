import { randomUUID } from "node:crypto";
import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { toTransaction } from "@/features/transactions/data/map-transaction";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { stringifyJson } from "@/platform/http/json";
import { kitToken, routeKitForFile } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";

/*
 * GET /api/v1/transactions through the route handler: paging through every player's transactions in
 * (updated_at, id) order gives exactly the table (ties of updated_at included, a row updated while paging moved to
 * the end, not lost); `ids` across players; the 400s naming the parameter; the scope; one audit row per page
 * naming its players.
 */

const kit = routeKitForFile();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
const admin = await kitToken("admin-bulk", { roles: ["admin"] });
const machine = await kitToken("copy-job", { scope: "transactions:bulk", client_id: "ledger-copy" });

afterAll(async () => {
  await sql.query("DELETE FROM transactions WHERE id LIKE 'TBULK%'");
  await sql.end();
});

interface Row {
  id: string;
  player_id: string;
  amount: number;
  updated_at: string;
}
interface Page {
  transactions: Row[];
  has_more: boolean;
  next_cursor: string | null;
}

async function page(query: string, token = machine, session = "bulk-read"): Promise<Page> {
  const res = await kit.call("GET", `/api/v1/transactions?${query}`, {
    token,
    headers: { "x-session-id": session },
  });
  expect(res.status, `${query}: ${res.text}`).toBe(200);
  const body = res.json as Page;
  // Link names the next page: this query with the cursor changed; none on the last page.
  const kept = query.split("&").filter((pair) => pair !== "" && !/^(cursor|offset)=/.test(pair));
  expect(res.headers.get("link")).toBe(
    body.has_more
      ? `</api/v1/transactions?${[...kept, `cursor=${body.next_cursor}`].join("&")}>; rel="next"`
      : null,
  );
  return body;
}

/** Every page from `query` on, following next_cursor; `between` runs after each page. */
async function readAll(query: string, between?: (n: number) => Promise<void>): Promise<Row[]> {
  const rows: Row[] = [];
  let next = await page(query);
  for (let n = 1; ; n++) {
    rows.push(...next.transactions);
    await between?.(n);
    if (!next.has_more) return rows;
    expect(next.next_cursor).toBeTruthy();
    next = await page(`${query.replace(/(^|&)cursor=[^&]*/, "")}&cursor=${next.next_cursor}`);
  }
}

async function badParameters(query: string): Promise<string[]> {
  const res = await kit.call("GET", `/api/v1/transactions?${query}`, { token: machine });
  expect(res.status, `${query}: ${res.text}`).toBe(400);
  expect(res.contentType).toContain("application/problem+json");
  return (res.json as { errors: { name: string }[] }).errors.map((e) => e.name);
}

/**
 * Six transactions of two players written by one statement: one updated_at, a tie broken by id. Their fields vary
 * as the mapper's cases do: a note or none, money in and out, whole and 8-decimal, pending (no completed_at).
 */
async function insertTied(prefix: string): Promise<Date> {
  const { rows } = await sql.query<{ now: Date }>("SELECT now() AS now");
  const values = [1, 2, 3, 4, 5, 6]
    .map((i) => {
      const player = i % 2 ? FIXTURE_PLAYER_ID : "P000002";
      const amount = ["1.12345678", "-250", "0.5", "-0.00000001", "123456789012.12345678", "7.10000000"][
        i - 1
      ];
      const note = i === 3 ? `'a "quoted" note ✓'` : "NULL";
      const done = i === 6 ? "'pending', NULL" : "'completed', '2020-01-01T00:00:01.5Z'";
      return `('${prefix}${i}', '${player}', '2020-01-01T00:00:00.123Z', 'deposit', 'Card Deposit', ${note}, ${amount}, 'EUR', 'Visa', 'System', '1999-12-31T23:59:59.999Z', ${done})`;
    })
    .join(",");
  await sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, event_note, amount, currency,
       payment_method, created_by, created_at, status, completed_at) VALUES ${values}`,
  );
  return rows[0]?.now ?? new Date();
}

/** The body text the app's own mapper and JSON writer give for the same rows: the statement's text must equal it. */
async function mapperText(body: Page): Promise<string> {
  const ids = body.transactions.map((r) => r.id);
  const rows = await getPrisma().transaction.findMany({ where: { id: { in: ids } } });
  const byId = new Map(rows.map((r) => [r.id, r]));
  const transactions = ids.map((id) => {
    const row = byId.get(id);
    if (!row) throw new Error(`${id} not found`);
    return { ...toTransaction(row), player_id: row.playerId };
  });
  return stringifyJson({ transactions, has_more: body.has_more, next_cursor: body.next_cursor });
}

describe("GET /api/v1/transactions", () => {
  it("pages through every transaction in (updated_at, id) order: exactly the table, ties included", async () => {
    await insertTied("TBULKA");
    const read = await readAll("limit=1000");
    const { rows } = await sql.query<{ id: string; player_id: string; updated_at: Date }>(
      "SELECT id, player_id, updated_at FROM transactions ORDER BY updated_at, id",
    );
    expect(rows.length).toBeGreaterThan(1000);
    expect(read.map((r) => [r.id, r.player_id, r.updated_at])).toEqual(
      rows.map((r) => [r.id, r.player_id, r.updated_at.toISOString()]),
    );
    // The tie: one updated_at, in id order, across two players.
    const tied = read.filter((r) => r.id.startsWith("TBULKA"));
    expect(tied.map((r) => r.id)).toEqual(["TBULKA1", "TBULKA2", "TBULKA3", "TBULKA4", "TBULKA5", "TBULKA6"]);
    expect(new Set(tied.map((r) => r.updated_at)).size).toBe(1);
    expect(new Set(tied.map((r) => r.player_id))).toEqual(new Set([FIXTURE_PLAYER_ID, "P000002"]));
  });

  it("answers the list's rows with player_id and exact money, as the document describes", async () => {
    const since = await insertTied("TBULKM");
    const res = await kit.call("GET", `/api/v1/transactions?updated_since=${since.toISOString()}&limit=6`, {
      token: machine,
    });
    expect(res.status).toBe(200);
    expect(kit.validate("/transactions", res.json)).toEqual([]);
    // Every digit of numeric(20,8), as the player's list writes it.
    expect(res.text).toContain('"amount":123456789012.12345678');
    const body = res.json as Page;
    expect(body.transactions.map((r) => r.id)).toEqual([
      "TBULKM1",
      "TBULKM2",
      "TBULKM3",
      "TBULKM4",
      "TBULKM5",
      "TBULKM6",
    ]);
    // Byte for byte what the list's mapper and the app's JSON writer give, here and on a page of the seed.
    expect(res.text).toBe(await mapperText(body));
    const seed = await kit.call("GET", "/api/v1/transactions?limit=1000", { token: machine });
    expect(seed.text).toBe(await mapperText(seed.json as Page));
    const list = await kit.call(
      "GET",
      `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?transaction_id=TBULKM1`,
      { token: admin },
    );
    const listed = (list.json as { transactions: Row[] }).transactions[0];
    expect(body.transactions[0]).toEqual({ ...listed, player_id: FIXTURE_PLAYER_ID });
  });

  it("moves a row updated while paging to the end: read again there, never lost", async () => {
    const since = await insertTied("TBULKU");
    const query = `updated_since=${since.toISOString()}&limit=2`;
    const read = await readAll(query, async (n) => {
      // After the first page: one row already read and one not yet read change.
      if (n === 1) {
        await sql.query(
          "UPDATE transactions SET event_note = 'corrected' WHERE id IN ('TBULKU1', 'TBULKU4')",
        );
      }
    });
    const ids = read.map((r) => r.id).filter((id) => id.startsWith("TBULKU"));
    expect(ids).toEqual(["TBULKU1", "TBULKU2", "TBULKU3", "TBULKU5", "TBULKU6", "TBULKU1", "TBULKU4"]);
    const last = read.filter((r) => r.id === "TBULKU1").at(-1) as Row & { event_note: string };
    expect(last.event_note).toBe("corrected");
  });

  it("answers ids across players, the unknown ones simply absent, and at most 100 distinct", async () => {
    await insertTied("TBULKI");
    const body = await page("ids=TBULKI2,NOPE,TBULKI1,TBULKI2");
    expect(body).toMatchObject({ has_more: false, next_cursor: null });
    expect(body.transactions.map((r) => [r.id, r.player_id])).toEqual([
      ["TBULKI1", FIXTURE_PLAYER_ID],
      ["TBULKI2", "P000002"],
    ]);
    const hundred = Array.from({ length: 100 }, (_, i) => `TBULKI${i}`);
    await page(`ids=${[...hundred, ...hundred].join(",")}`);
    expect(await badParameters(`ids=${[...hundred, "TBULKX"].join(",")}`)).toEqual(["ids"]);
  });

  it("refuses a foreign or garbled cursor, and ids beside paging, naming the parameters", async () => {
    const list = await kit.call("GET", `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?limit=1`, {
      token: admin,
    });
    const foreign = (list.json as { next_cursor: string }).next_cursor;
    expect(foreign).toBeTruthy();
    const asc = await kit.call(
      "GET",
      `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?limit=1&sort=date_asc`,
      { token: admin },
    );
    for (const cursor of [foreign, (asc.json as { next_cursor: string }).next_cursor, "garbage!", "abc"]) {
      expect(await badParameters(`cursor=${encodeURIComponent(cursor)}`)).toEqual(["cursor"]);
    }
    const { next_cursor } = await page("limit=1");
    expect(await badParameters(`ids=T1&updated_since=2026-01-01T00:00:00Z`)).toEqual([
      "ids",
      "updated_since",
    ]);
    expect(await badParameters(`ids=T1&cursor=${next_cursor}`)).toEqual(["ids", "cursor"]);
    expect(await badParameters("ids=T1&limit=5")).toEqual(["ids", "limit"]);
    for (const limit of ["0", "1001", "x"]) expect(await badParameters(`limit=${limit}`)).toEqual(["limit"]);
    expect(await badParameters("updated_since=yesterday")).toEqual(["updated_since"]);
  });

  it("needs transactions:bulk: admins and a client granted it, never a VIP manager or a support agent", async () => {
    for (const roles of [["support_agent"], ["vip_manager"]]) {
      const token = await kitToken(`no-bulk-${roles[0]}`, { roles });
      const res = await kit.call("GET", "/api/v1/transactions?limit=1", { token });
      expect(res.status, roles[0]).toBe(403);
      expect(res.headers.get("www-authenticate")).toContain("transactions:bulk");
    }
    const reader = await kitToken("plain-client", { scope: "players:read players:pii" });
    expect((await kit.call("GET", "/api/v1/transactions?limit=1", { token: reader })).status).toBe(403);
    await page("limit=1", admin);
    await page("limit=1", machine);
  });

  it("records one transactions_bulk row per page, naming the players it returned", async () => {
    const since = await insertTied("TBULKR");
    const session = `bulk-audit-${randomUUID()}`;
    const first = await page(`updated_since=${since.toISOString()}&limit=1`, machine, session);
    await page(`updated_since=${since.toISOString()}&limit=1&cursor=${first.next_cursor}`, machine, session);
    await page("ids=NOPE", machine, session);
    await getAuditQueue().flush();
    const { rows } = await sql.query<{
      operation: string;
      player_id: string | null;
      result_player_ids: string[];
    }>(
      "SELECT operation::text, player_id, result_player_ids FROM audit_events WHERE session_id = $1 ORDER BY id",
      [session],
    );
    expect(rows).toEqual([
      { operation: "transactions_bulk", player_id: null, result_player_ids: [FIXTURE_PLAYER_ID] },
      { operation: "transactions_bulk", player_id: null, result_player_ids: ["P000002"] },
      { operation: "transactions_bulk", player_id: null, result_player_ids: [] },
    ]);
  });
});
