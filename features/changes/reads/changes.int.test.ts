import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildOpenApiDocument } from "@/features/api-docs/document";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { freshTestDatabase } from "@/test/support/fresh-test-database";
import { createOpenApiValidator, validationErrors } from "@/test/support/openapi-validator";
import { routeKitForFile } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID } from "@/test/support/test-fixtures";

/*
 * GET /api/v1/changes and updated_since through the route handlers: the edges of `after` (bad, beyond the end,
 * the tail), of `limit` and of `updated_since`, each a 400 problem naming the parameter; another database's `feed`
 * and a position below the pruning horizon, each a 410 `feed-gone`; bodies as the OpenAPI document promises; the
 * read audited as `changes`.
 */

const kit = routeKitForFile();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });

afterAll(async () => {
  await sql.query("DELETE FROM transactions WHERE id LIKE 'TFEEDR%'");
  await sql.query("DELETE FROM players WHERE id LIKE 'PFEEDR%'");
  await sql.end();
});

interface Page {
  changes: { position: number; kind: string; player_id: string | null }[];
  next: number;
  has_more: boolean;
  tail: number;
  feed: string;
}

interface ProblemBody {
  type: string;
  status: number;
  errors: { name: string; in: string; detail: string }[];
}

/** A 410 `feed-gone` naming `name`, as the document describes it. */
async function expectFeedGone(path: string, name: string): Promise<ProblemBody> {
  const res = await kit.call("GET", path);
  expect(res.status, `${path}: ${res.text}`).toBe(410);
  expect(res.contentType).toContain("application/problem+json");
  const body = res.json as ProblemBody;
  expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/feed-gone$/);
  expect(body.errors.map((e) => e.name)).toEqual([name]);
  const validator = createOpenApiValidator(buildOpenApiDocument());
  expect(validationErrors(validator.response("/changes", "410", "application/problem+json"), body)).toEqual(
    [],
  );
  return body;
}

async function expectBadParameter(path: string, name: string): Promise<string> {
  const res = await kit.call("GET", path);
  expect(res.status, `${path}: ${res.text}`).toBe(400);
  expect(res.contentType).toContain("application/problem+json");
  const body = res.json as { errors: { name: string; in: string; detail: string }[] };
  expect(body.errors.map((e) => e.name)).toEqual([name]);
  return body.errors[0]?.detail ?? "";
}

describe("GET /api/v1/changes", () => {
  it("answers a page the document describes, and keeps the position at the tail", async () => {
    const first = await kit.call("GET", "/api/v1/changes?limit=1");
    expect(first.status).toBe(200);
    expect(kit.validate("/changes", first.json)).toEqual([]);
    const { tail, feed } = first.json as Page;
    expect(feed).toMatch(/^[0-9a-f]{32}$/);
    const atTail = await kit.call("GET", `/api/v1/changes?after=${tail}`);
    expect(atTail.status).toBe(200);
    expect(atTail.json).toEqual({ changes: [], next: tail, has_more: false, tail, feed });
    // With its own feed the same request answers the same (feed is additive).
    const withFeed = await kit.call("GET", `/api/v1/changes?after=${tail}&feed=${feed}`);
    expect(withFeed.status).toBe(200);
    expect(withFeed.json).toEqual(atTail.json);
    expect(atTail.headers.get("cache-control")).toBeTruthy();
  });

  it("refuses a bad after, one beyond the end and a bad limit, naming the parameter", async () => {
    for (const bad of ["abc", "-1", "1.5", "1e3", "", "9007199254740992"]) {
      await expectBadParameter(`/api/v1/changes?after=${encodeURIComponent(bad)}`, "after");
    }
    const { tail } = (await kit.call("GET", "/api/v1/changes?limit=1")).json as Page;
    const detail = await expectBadParameter(`/api/v1/changes?after=${tail + 1000}`, "after");
    expect(detail).toContain(`newest position is ${tail}`);
    for (const bad of ["0", "1001", "x"]) await expectBadParameter(`/api/v1/changes?limit=${bad}`, "limit");
    for (const bad of ["", "a b", "x".repeat(101), "feed/1"]) {
      await expectBadParameter(`/api/v1/changes?feed=${encodeURIComponent(bad)}`, "feed");
    }
    await expectBadParameter("/api/v1/changes?since=0", "since");
  });

  it("lists a new transaction and a completion, and audits the page as changes with the players it names", async () => {
    const { tail } = (await kit.call("GET", "/api/v1/changes?limit=1")).json as Page;
    await sql.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
         status) VALUES ('TFEEDR1', $1, '2020-01-01T00:00:00Z', 'deposit', 'Card Deposit', 5, 'EUR', 'System',
         '2020-01-01T00:00:00Z', 'pending')`,
      [FIXTURE_PLAYER_ID],
    );
    await sql.query(
      "UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = 'TFEEDR1'",
    );
    const res = await kit.call("GET", `/api/v1/changes?after=${tail}`, {
      headers: { "x-session-id": "feed-audit" },
    });
    const page = res.json as { changes: { kind: string; transaction_id: string; status: string }[] };
    expect(page.changes.map((c) => [c.kind, c.transaction_id, c.status])).toEqual([
      ["transaction.created", "TFEEDR1", "pending"],
      ["transaction.updated", "TFEEDR1", "completed"],
    ]);
    await getAuditQueue().flush();
    const { rows } = await sql.query<{ operation: string; result_player_ids: string[] }>(
      "SELECT operation::text, result_player_ids FROM audit_events WHERE session_id = 'feed-audit'",
    );
    expect(rows).toEqual([{ operation: "changes", result_player_ids: [FIXTURE_PLAYER_ID] }]);
  });
});

describe("GET /api/v1/changes across feeds", () => {
  it("names another feed in another database, and answers a position from it 410 feed-gone", async () => {
    const { tail, feed } = (await kit.call("GET", "/api/v1/changes?limit=1")).json as Page;
    const other = await freshTestDatabase(inject("databaseKind"), "feed_other");
    let theirs: string;
    try {
      const client = new pg.Client({ connectionString: other.url });
      await client.connect();
      const { rows } = await client.query<{ feed: string }>("SELECT change_feed_id() AS feed");
      await client.end();
      theirs = rows[0]?.feed ?? "";
    } finally {
      await other.stop();
    }
    expect(theirs).toMatch(/^[0-9a-f]{32}$/);
    expect(theirs).not.toBe(feed);
    const gone = await expectFeedGone(`/api/v1/changes?after=${tail}&feed=${theirs}`, "feed");
    expect(gone.errors[0]?.detail).toContain(feed);
    // Whatever the position: 0, or one this database never reached.
    await expectFeedGone(`/api/v1/changes?feed=${theirs}`, "feed");
    await expectFeedGone(`/api/v1/changes?after=${tail + 1000}&feed=${theirs}`, "feed");
    // Without feed, as before: a position within the tail is followed.
    expect((await kit.call("GET", `/api/v1/changes?after=${tail}`)).status).toBe(200);
  });

  it("answers a position below the pruning horizon 410 feed-gone, with or without feed; after=0 alone still lists", async () => {
    const { tail: start, feed } = (await kit.call("GET", "/api/v1/changes?limit=1")).json as Page;
    await sql.query(
      `INSERT INTO players (id, name, currency, registration_date) VALUES ('PFEEDR1', 'Feed Test', 'EUR', now())`,
    );
    await sql.query(
      `INSERT INTO players (id, name, currency, registration_date) VALUES ('PFEEDR2', 'Feed Test', 'EUR', now())`,
    );
    const mine = ((await kit.call("GET", `/api/v1/changes?after=${start}`)).json as Page).changes;
    expect(mine.map((c) => c.player_id)).toEqual(["PFEEDR1", "PFEEDR2"]);
    const [pruned, kept] = mine.map((c) => c.position) as [number, number];
    // Pruning: the oldest of the two entries is deleted (as `DELETE FROM changes WHERE position <= …` would).
    await sql.query("DELETE FROM changes WHERE position = $1", [pruned]);

    const gone = await expectFeedGone(`/api/v1/changes?after=${start}`, "after");
    expect(gone.errors[0]?.detail).toContain(`pruning horizon (${pruned})`);
    await expectFeedGone(`/api/v1/changes?after=${pruned - 1}&feed=${feed}`, "after");
    await expectFeedGone(`/api/v1/changes?feed=${feed}`, "after"); // with feed, 0 is a position like any other
    const atHorizon = await kit.call("GET", `/api/v1/changes?after=${pruned}&feed=${feed}`);
    expect(atHorizon.status).toBe(200);
    expect((atHorizon.json as Page).changes.map((c) => c.position)).toEqual([kept]);
    const fromStart = await kit.call("GET", "/api/v1/changes?limit=1");
    expect(fromStart.status).toBe(200);
    expect((fromStart.json as Page).feed).toBe(feed); // pruning keeps the feed
  });
});

describe("updated_since on a player's transactions", () => {
  const path = `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions`;

  it("refuses what is not an instant with an offset, naming updated_since", async () => {
    for (const bad of [
      "yesterday",
      "2026-11-20",
      "2026-11-20T12:00:00",
      "2026-02-30T00:00:00Z",
      "2026-11-20T12:00:00.1234Z",
      "2026-11-20T25:00:00Z",
      "0000-01-01T00:00:00Z",
      "",
    ]) {
      const detail = await expectBadParameter(
        `${path}?updated_since=${encodeURIComponent(bad)}`,
        "updated_since",
      );
      expect(detail).toContain("ISO 8601 instant");
    }
    await expectBadParameter(`${path}?updated_since=2026-11-20T12:00:00Z&sort=amount_desc`, "updated_since");
  });

  it("keeps the transactions changed at or after the instant, a backdated one included, with an exact total", async () => {
    const { rows } = await sql.query<{ now: Date }>("SELECT now() AS now");
    const since = rows[0]?.now ?? new Date();
    await sql.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
         completed_at, status) VALUES ('TFEEDR2', $1, '2019-06-01T00:00:00Z', 'deposit', 'Card Deposit', 7, 'EUR',
         'System', '2019-06-01T00:00:00Z', '2019-06-01T00:00:00Z', 'completed')`,
      [FIXTURE_PLAYER_ID],
    );
    const res = await kit.call("GET", `${path}?updated_since=${since.toISOString()}&limit=100`);
    expect(res.status).toBe(200);
    expect(kit.validate("/players/{playerId}/transactions", res.json)).toEqual([]);
    const body = res.json as { transactions: { id: string; updated_at: string }[]; total: number };
    expect(body.transactions.map((t) => t.id)).toEqual(["TFEEDR2"]);
    expect(body.total).toBe(1);
    expect(Date.parse(body.transactions[0]?.updated_at ?? "")).toBeGreaterThanOrEqual(since.getTime() - 1);
    const future = await kit.call("GET", `${path}?updated_since=2999-01-01T00:00:00%2B02:00`);
    expect((future.json as { total: number }).total).toBe(0);
  });
});

describe("updated_since on the player search", () => {
  it("refuses a bad instant, and updated_since beside ids, naming updated_since", async () => {
    const detail = await expectBadParameter("/api/v1/players?updated_since=2026-11-20", "updated_since");
    expect(detail).toContain("ISO 8601 instant");
    await expectBadParameter(
      `/api/v1/players?ids=${FIXTURE_PLAYER_ID}&updated_since=2026-11-20T12:00:00Z`,
      "updated_since",
    );
  });

  it("keeps the players changed at or after the instant, and none after the newest change", async () => {
    const { rows } = await sql.query<{ since: Date }>("SELECT max(updated_at) AS since FROM players");
    const since = rows[0]?.since ?? new Date();
    // updated_at only grows, so these stay at or after `since` whatever else runs meanwhile.
    const before = await sql.query<{ id: string }>(
      "SELECT id FROM players WHERE updated_at >= $1 ORDER BY id LIMIT 100",
      [since],
    );
    const res = await kit.call("GET", `/api/v1/players?updated_since=${since.toISOString()}&limit=100`);
    expect(res.status, res.text).toBe(200);
    expect(kit.validate("/players", res.json)).toEqual([]);
    const ids = (res.json as { players: { id: string }[] }).players.map((p) => p.id);
    expect(ids.length).toBeGreaterThan(0);
    expect(ids).toEqual(expect.arrayContaining(before.rows.map((r) => r.id)));
    const stamps = await sql.query<{ id: string; updated_at: Date }>(
      "SELECT id, updated_at FROM players WHERE id = ANY($1)",
      [ids],
    );
    for (const r of stamps.rows) expect(r.updated_at.getTime(), r.id).toBeGreaterThanOrEqual(since.getTime());
    const future = await kit.call("GET", "/api/v1/players?updated_since=2999-01-01T00:00:00Z");
    expect(future.json).toMatchObject({ players: [], total: 0 });
  });
});
