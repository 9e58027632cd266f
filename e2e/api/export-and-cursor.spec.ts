import { expect, test } from "@playwright/test";
import { signToken } from "../../test/support/e2e-auth.ts";
import { FIXTURE_PLAYER_ID, FIXTURE_TRANSACTIONS } from "../../test/support/test-fixtures.ts";
import { expectDocumented, expectProblem, get, responseValidator } from "./helpers.ts";

const LIST = "/players/{playerId}/transactions";
const EXPORT = "/players/{playerId}/transactions/export";
const WHALE = "P000007";
type Row = Record<string, string | number | null>;
type Page = {
  transactions: Row[];
  total: number;
  has_more: boolean;
  next_cursor: string | null;
  offset: number;
};

const list = async (request: Parameters<typeof get>[0], playerId: string, qs: string) =>
  (await expectDocumented(
    request,
    await get(request, `/api/v1/players/${playerId}/transactions?${qs}`),
    LIST,
  )) as unknown as Page;

/** Every row by offset pages (the spec's paging), the reference for the cursor and the export. */
async function allByOffset(request: Parameters<typeof get>[0], playerId: string, filters: string) {
  const rows: Row[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await list(request, playerId, `${filters}&limit=100&offset=${offset}`);
    rows.push(...page.transactions);
    if (!page.has_more) return rows;
  }
}

/** RFC 4180 parser (quotes, doubled quotes, CRLF) for checking what the export wrote. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = "";
  let quoted = false;
  const endCell = () => {
    row.push(cell);
    cell = "";
  };
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ",") endCell();
    else if (c === "\r" && text[i + 1] === "\n") {
      endCell();
      rows.push(row);
      row = [];
      i++;
    } else cell += c;
  }
  expect(cell, "the file ends with a line break").toBe("");
  return rows;
}

const FILTERS = "event_type=deposit,withdrawal,adjustment&from_date=2024-06-01&to_date=2026-06-30T12:00:00Z";
/** How the export's file name states FILTERS (an end that closes no whole day keeps its time). */
const FILTER_NAME = "deposit-withdrawal-adjustment_2024-06-01_2026-06-30T120000Z";

test.describe("cursor paging over HTTP", () => {
  test("following next_cursor visits the same rows as offset paging; total is the full count", async ({
    request,
  }) => {
    const reference = await allByOffset(request, WHALE, FILTERS);
    expect(reference.length).toBeGreaterThan(150);
    const seen: Row[] = [];
    let qs = `${FILTERS}&limit=37`;
    for (;;) {
      const page = await list(request, WHALE, qs);
      expect(page.total).toBe(reference.length);
      expect(page.offset).toBe(0);
      seen.push(...page.transactions);
      if (!page.next_cursor) {
        expect(page.has_more).toBe(false);
        break;
      }
      qs = `${FILTERS}&limit=37&cursor=${page.next_cursor}`;
    }
    expect(seen).toEqual(reference);
  });

  test("an offset page's next_cursor continues where the offset would", async ({ request }) => {
    const a = await list(request, WHALE, "limit=10&offset=500");
    const b = await list(request, WHALE, `limit=10&cursor=${a.next_cursor}`);
    const c = await list(request, WHALE, "limit=10&offset=510");
    expect(b.transactions).toEqual(c.transactions);
    const last = await list(request, FIXTURE_PLAYER_ID, "limit=100");
    expect(last).toMatchObject({ has_more: false, next_cursor: null });
  });

  test("a cursor it did not issue, or with a non-zero offset, is a 400 naming cursor", async ({
    request,
  }) => {
    const { next_cursor } = await list(request, WHALE, "limit=1");
    for (const qs of [
      "cursor=garbage!",
      "cursor=",
      `cursor=${next_cursor}x`,
      `cursor=${next_cursor}&offset=5`,
      `cursor=${next_cursor}&cursor=${next_cursor}`,
    ]) {
      await expectProblem(await get(request, `/api/v1/players/${WHALE}/transactions?${qs}`), 400, ["cursor"]);
    }
    expect((await list(request, WHALE, `cursor=${next_cursor}&offset=0`)).transactions).toHaveLength(20);
  });
});

test.describe("GET /api/v1/players/{playerId}/transactions/export", () => {
  const path = (playerId: string, qs: string) => `/api/v1/players/${playerId}/transactions/export?${qs}`;

  test("CSV: the same rows as the paged API, exact money, a header, an attachment", async ({ request }) => {
    const reference = await allByOffset(request, WHALE, FILTERS);
    const res = await get(request, path(WHALE, FILTERS));
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/csv; charset=utf-8/);
    const name = `P000007_transactions_${FILTER_NAME}.csv`;
    expect(res.headers()["content-disposition"]).toBe(
      `attachment; filename="${name}"; filename*=UTF-8''${name}`,
    );
    expect(res.headers()["cache-control"]).toBe("no-store, no-transform");
    expect(res.headers()["x-request-id"]).toBeTruthy();
    const [header, ...rows] = parseCsv(await res.text());
    // The columns: the player, then a transaction's fields as the paged API writes them, in its order.
    expect(reference.length).toBeGreaterThan(0);
    // Every field of the list's rows, `updated_at` last (an addition at the end of the columns).
    expect(header).toEqual(["player_id", ...Object.keys(reference[0] ?? {})]);
    expect(header?.slice(-2)).toEqual(["status", "updated_at"]);
    const asCsv = (t: Row) => [
      WHALE,
      ...(header ?? []).slice(1).map((c) => (t[c] === null ? "" : String(t[c]))),
    ];
    expect(rows).toEqual(reference.map(asCsv));
  });

  test("NDJSON: one record with player_id per line, digits as on the list", async ({ request }) => {
    const reference = await allByOffset(request, FIXTURE_PLAYER_ID, "");
    const res = await get(request, path(FIXTURE_PLAYER_ID, "format=ndjson"));
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/x-ndjson/);
    const text = await res.text();
    const lines = text.split("\n");
    expect(lines.pop()).toBe("");
    // Each line is the list's row, updated_at included, with player_id first: what the document's line schema says.
    expect(lines.map((l) => JSON.parse(l))).toEqual(
      reference.map((t) => ({ player_id: FIXTURE_PLAYER_ID, ...t })),
    );
    const line = await responseValidator(request, EXPORT, "200", "application/x-ndjson");
    for (const l of lines) expect(line(JSON.parse(l)), JSON.stringify(line.errors)).toBe(true);
    expect(lines).toHaveLength(FIXTURE_TRANSACTIONS.length);
    // Digits a double would lose survive (the list's JSON has them too).
    const listText = await (
      await get(request, `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?limit=100`)
    ).text();
    for (const amount of text.match(/"amount":-?[\d.]+/g) ?? []) expect(listText).toContain(amount);
  });

  test("no match is a header-only CSV; unknown player 404; bad parameters 400 naming each", async ({
    request,
  }) => {
    const empty = await get(request, path(WHALE, "created_by=Nobody"));
    expect(empty.status()).toBe(200);
    expect(parseCsv(await empty.text())).toHaveLength(1);
    await expectProblem(await get(request, path("NO-SUCH-PLAYER", "")), 404);
    for (const [qs, names] of [
      ["format=xlsx", ["format"]],
      ["limit=10", ["limit"]],
      ["offset=10", ["offset"]],
      ["cursor=abc", ["cursor"]],
      ["event_type=payout&from_date=x", ["event_type", "from_date"]],
      ["from_date=2026-01-02&to_date=2026-01-01", ["from_date"]],
    ] as const) {
      await expectProblem(await get(request, path(WHALE, qs)), 400, [...names]);
    }
  });

  test("needs the same credentials as the list", async ({ request }) => {
    const res = await request.get(path(WHALE, ""), { headers: { "X-Session-ID": "s" } });
    await expectProblem(res, 401);
  });

  test("many exports at once all complete, whole (they queue for a slot instead of starving the pool)", async ({
    request,
  }) => {
    // More exports than slots (half the pool of 10), each small: the point is the queue, not the volume
    // (this suite shares two cores with the browser tests). Six callers, each at its cap of two exports.
    const filters = "event_type=deposit,withdrawal&from_date=2025-06-01";
    const { total } = await list(request, WHALE, `${filters}&limit=1`);
    expect(total).toBeGreaterThan(50);
    const callers = await Promise.all(
      Array.from({ length: 6 }, (_, i) => signToken(`exporter-${i}`, { roles: ["support_agent"] })),
    );
    const bodies = await Promise.all(
      Array.from({ length: 12 }, async (_, i) => {
        const res = await get(request, path(WHALE, `${filters}&format=ndjson`), {
          Authorization: `Bearer ${callers[i % callers.length]}`,
        });
        expect(res.status()).toBe(200);
        return res.body();
      }),
    );
    for (const body of bodies) expect(body.filter((byte) => byte === 10).length).toBe(total);
    // A read after them: nothing was left holding the pool.
    expect((await list(request, WHALE, `${filters}&limit=1`)).total).toBe(total);
  });

  test("HEAD answers the export's headers without a body", async ({ request }) => {
    const res = await request.head(path(WHALE, ""), {
      headers: { Authorization: "Bearer t", "X-Session-ID": "s" },
    });
    expect(res.status()).toBe(200);
    expect(res.headers()["content-disposition"]).toBe(
      "attachment; filename=\"P000007_transactions.csv\"; filename*=UTF-8''P000007_transactions.csv",
    );
    expect(await res.body()).toHaveLength(0);
  });

  test("streams all of the whale's transactions in one response", async ({ request }) => {
    const { total } = await list(request, WHALE, "limit=1");
    const res = await get(request, path(WHALE, "format=ndjson"));
    expect(res.status()).toBe(200);
    const body = await res.body();
    let lines = 0;
    for (const byte of body) if (byte === 10) lines++;
    expect(lines).toBe(total);
  });
});
