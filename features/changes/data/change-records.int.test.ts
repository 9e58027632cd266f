import pg from "pg";
import { afterAll, describe, expect, inject, it } from "vitest";
import { buildOpenApiDocument } from "@/features/api-docs/document";
import { CHANGE_KINDS } from "@/features/changes/schema/change";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import type { PrismaClient } from "@/platform/db/generated/client";
import { ChangeFeedSyncer } from "@/test/support/change-feed-syncer";
import { routeKitForFile } from "@/test/support/route-test-kit";
import { createTestPrisma } from "@/test/support/test-client";
import { withRecords } from "./change-records.ts";
import { listChanges } from "./list-changes.ts";

/*
 * GET /api/v1/changes?include=record, kinds= and player_id= through the route handlers, on both databases: each
 * entry's record as the caller may see it now (masked without players:pii), null once deleted; filters whose
 * `next` moves past the entries left out; the audit row naming the players whose data the page carries; and a
 * syncer that follows 1,000 changes in at most 5 requests and ends equal to a full read.
 */

const kit = routeKitForFile();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 2 });
const db = createTestPrisma();

afterAll(async () => {
  await db.$disconnect();
  await sql.query("DELETE FROM players WHERE id LIKE 'PFEEDJ%'");
  await sql.end();
});

interface Entry {
  position: number;
  kind: string;
  player_id: string | null;
  transaction_id: string | null;
  record?: unknown;
}

interface Page {
  changes: Entry[];
  next: number;
  has_more: boolean;
  tail: number;
}

const PII = "players:read players:pii";
const READ_ONLY = "players:read";

async function get(
  path: string,
  scope = PII,
  session = "feed-records",
): Promise<{ status: number; text: string; json: unknown }> {
  const token = await kit.token(`feed-${scope.length}`, { scope });
  const res = await kit.call("GET", path, { token, headers: { "x-session-id": session } });
  return { status: res.status, text: res.text, json: res.json };
}

async function page(path: string, scope = PII): Promise<Page> {
  const res = await get(path, scope);
  expect(res.status, `${path}: ${res.text}`).toBe(200);
  expect(kit.validate("/changes", res.json)).toEqual([]);
  return res.json as Page;
}

const tailNow = async () => (await page("/api/v1/changes?limit=1")).tail;

const insertPlayer = (id: string, email: string | null = null, phone: string | null = null) =>
  sql.query(
    `INSERT INTO players (id, name, email, phone, currency, registration_date)
     VALUES ($1, 'Feed Record', $2, $3, 'EUR', now())`,
    [id, email, phone],
  );

const insertTransaction = (id: string, playerId: string, amount: string) =>
  sql.query(
    `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
       status) VALUES ($1, $2, now() - interval '3 days', 'deposit', 'Card Deposit', $3::numeric, 'EUR', 'System',
       now(), 'pending')`,
    [id, playerId, amount],
  );

async function expectBadParameter(path: string, name: string): Promise<string> {
  const res = await get(path);
  expect(res.status, `${path}: ${res.text}`).toBe(400);
  const body = res.json as { errors: { name: string; detail: string }[] };
  expect(body.errors.map((e) => e.name)).toEqual([name]);
  return body.errors[0]?.detail ?? "";
}

describe("GET /api/v1/changes?include=record", () => {
  it("carries each record as the caller may see it now: masked without players:pii, null once deleted", async () => {
    const start = await tailNow();
    await insertPlayer("PFEEDJ1", "jane.record@example.com", "+44 7700 900189");
    await insertTransaction("TFEEDJ1", "PFEEDJ1", "12345678901.12345678");
    await sql.query(
      "UPDATE transactions SET status = 'completed', completed_at = now() WHERE id = 'TFEEDJ1'",
    );
    await insertPlayer("PFEEDJ2");
    await insertTransaction("TFEEDJ2", "PFEEDJ1", "1");
    await sql.query("DELETE FROM transactions WHERE id = 'TFEEDJ2'");
    await sql.query("DELETE FROM players WHERE id = 'PFEEDJ2'");

    const path = `/api/v1/changes?after=${start}&include=record`;
    const full = await get(path, PII);
    expect(full.status, full.text).toBe(200);
    expect(kit.validate("/changes", full.json)).toEqual([]);
    const entries = (full.json as Page).changes;
    expect(entries.map((c) => [c.kind, c.player_id, c.transaction_id])).toEqual([
      ["player.created", "PFEEDJ1", null],
      ["transaction.created", "PFEEDJ1", "TFEEDJ1"],
      ["transaction.updated", "PFEEDJ1", "TFEEDJ1"],
      ["player.created", "PFEEDJ2", null],
      ["transaction.created", "PFEEDJ1", "TFEEDJ2"],
      ["transaction.deleted", "PFEEDJ1", "TFEEDJ2"],
      ["player.deleted", "PFEEDJ2", null],
    ]);
    // The profile as the profile read answers it to the same caller; the transaction as a list row (now).
    const profile = (await get("/api/v1/players/PFEEDJ1", PII)).json as { email: string };
    expect(profile.email).toBe("jane.record@example.com");
    const row = (
      (await get("/api/v1/players/PFEEDJ1/transactions?transaction_id=TFEEDJ1", PII)).json as {
        transactions: unknown[];
      }
    ).transactions[0];
    expect(row).toMatchObject({ id: "TFEEDJ1", status: "completed" });
    expect(entries.map((c) => c.record)).toEqual([profile, row, row, null, null, null, null]);
    // Exact money: the digits as stored, not a double's.
    expect(full.text).toContain('"amount":12345678901.12345678');

    const masked = await get(path, READ_ONLY);
    expect(masked.status, masked.text).toBe(200);
    expect(kit.validate("/changes", masked.json)).toEqual([]);
    const maskedProfile = (await get("/api/v1/players/PFEEDJ1", READ_ONLY)).json as { email: string };
    expect(maskedProfile.email).toBe("j***@example.com");
    const maskedRecord = (masked.json as Page).changes[0]?.record;
    expect(maskedRecord).toEqual(maskedProfile);
    expect(masked.text).not.toContain("jane.record");
    expect(masked.text).not.toContain("900189");

    // Without include, no entry carries a record.
    const plain = await page(`/api/v1/changes?after=${start}`);
    expect(plain.changes.every((c) => !("record" in c))).toBe(true);
  });

  it("records the page in the audit trail with the players whose data it carries", async () => {
    const start = await tailNow();
    await insertPlayer("PFEEDJ3", "audit.record@example.com");
    await insertTransaction("TFEEDJ3", "PFEEDJ1", "2.5");
    const session = `feed-records-audit-${start}`;
    const res = await get(`/api/v1/changes?after=${start}&include=record`, PII, session);
    expect(res.status, res.text).toBe(200);
    const carried = (res.json as Page).changes.filter((c) => c.record).map((c) => c.player_id);
    expect(new Set(carried)).toEqual(new Set(["PFEEDJ3", "PFEEDJ1"]));
    await getAuditQueue().flush();
    const { rows } = await sql.query<{ operation: string; result_player_ids: string[]; filters: unknown }>(
      "SELECT operation::text, result_player_ids, filters FROM audit_events WHERE session_id = $1",
      [session],
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.operation).toBe("changes");
    expect([...(rows[0]?.result_player_ids ?? [])].sort()).toEqual(["PFEEDJ1", "PFEEDJ3"]);
    expect(rows[0]?.filters).toMatchObject({ include: "record" });
  });
});

/** The real client, each `findMany` of players and transactions counted on its way through. */
function countingQueries(client: PrismaClient): { db: PrismaClient; calls: string[] } {
  const calls: string[] = [];
  const counted = (model: "player" | "transaction") =>
    new Proxy(client[model], {
      get(target, name, receiver) {
        const value = Reflect.get(target, name, receiver);
        if (name !== "findMany" || typeof value !== "function") return value;
        return (...args: unknown[]) => {
          calls.push(model);
          return value.apply(target, args);
        };
      },
    });
  const player = counted("player");
  const transaction = counted("transaction");
  const db = new Proxy(client, {
    get(target, name, receiver) {
      if (name === "player") return player;
      if (name === "transaction") return transaction;
      return Reflect.get(target, name, receiver);
    },
  });
  return { db, calls };
}

describe("the records of a page", () => {
  it("are read in one query per kind of record, whatever the page's size", async () => {
    const start = (await listChanges({ after: 0, limit: 1 }, db)).tail;
    await sql.query(
      `INSERT INTO players (id, name, currency, registration_date)
       SELECT 'PFEEDJQ' || lpad(i::text, 3, '0'), 'Feed Query', 'EUR', now() FROM generate_series(1, 150) i`,
    );
    await sql.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
         status)
       SELECT 'TFEEDJQ' || lpad(i::text, 3, '0'), 'PFEEDJQ' || lpad((i % 150 + 1)::text, 3, '0'), now(), 'deposit',
              'Card Deposit', i, 'EUR', 'System', now(), 'pending'
       FROM generate_series(1, 300) i`,
    );
    const page = await listChanges({ after: start, limit: 1000 }, db);
    expect(page.changes).toHaveLength(450);
    const { db: counting, calls } = countingQueries(db);
    const carried = await withRecords({ changes: page.changes, showProfile: (p) => p }, counting);
    expect(carried.filter((c) => c.record !== null)).toHaveLength(450);
    expect(calls.sort()).toEqual(["player", "transaction"]);
  });
});

describe("GET /api/v1/changes with kinds= and player_id=", () => {
  it("keeps only the entries asked for, and moves next past the entries left out", async () => {
    const start = await tailNow();
    await insertPlayer("PFEEDJ4");
    await insertPlayer("PFEEDJ5");
    await insertTransaction("TFEEDJ4", "PFEEDJ4", "3");
    await sql.query("UPDATE players SET name = 'Feed Record 5' WHERE id = 'PFEEDJ5'");
    await insertTransaction("TFEEDJ5", "PFEEDJ5", "4");
    const all = (await page(`/api/v1/changes?after=${start}`)).changes;
    expect(all.map((c) => [c.kind, c.player_id])).toEqual([
      ["player.created", "PFEEDJ4"],
      ["player.created", "PFEEDJ5"],
      ["transaction.created", "PFEEDJ4"],
      ["player.updated", "PFEEDJ5"],
      ["transaction.created", "PFEEDJ5"],
    ]);
    const last = all.at(-1)?.position ?? 0;
    const positions = (keep: (c: Entry) => boolean) => all.filter(keep).map((c) => c.position);

    const created = await page(`/api/v1/changes?after=${start}&kinds=transaction.created`);
    expect(created.changes.map((c) => c.position)).toEqual(
      positions((c) => c.kind === "transaction.created"),
    );
    expect(created).toMatchObject({ next: last, has_more: false });

    const five = await page(`/api/v1/changes?after=${start}&player_id=PFEEDJ5&include=record`);
    expect(five.changes.map((c) => c.position)).toEqual(positions((c) => c.player_id === "PFEEDJ5"));
    expect(five).toMatchObject({ next: last, has_more: false });
    expect(five.changes.every((c) => c.record !== null)).toBe(true);

    const both = await page(
      `/api/v1/changes?after=${start}&player_id=PFEEDJ4&kinds=player.created,player.updated`,
    );
    expect(both.changes.map((c) => c.position)).toEqual([all[0]?.position]);
    expect(both.next).toBe(last);

    // Page by page (limit=1): a full page stops at its entry; the page that lists the last one moves past the rest.
    const followed: number[] = [];
    const nexts: number[] = [];
    let after = start;
    for (let i = 0; i < 10; i += 1) {
      const p = await page(`/api/v1/changes?after=${after}&kinds=player.created&limit=1`);
      followed.push(...p.changes.map((c) => c.position));
      nexts.push(p.next);
      after = p.next;
      if (!p.has_more) break;
    }
    const createdPositions = positions((c) => c.kind === "player.created");
    expect(followed).toEqual(createdPositions);
    expect(nexts).toEqual([createdPositions[0], last]);

    // Nothing to list: an empty page at the end, its next the last entry examined; at that next, the same.
    const none = await page(`/api/v1/changes?after=${start}&kinds=reset`);
    expect(none).toMatchObject({ changes: [], next: last, has_more: false });
    expect(await page(`/api/v1/changes?after=${last}&kinds=reset`)).toMatchObject({
      changes: [],
      next: last,
    });
  });

  it("refuses an unknown kind, a malformed player id and an unknown include, naming each", async () => {
    const detail = await expectBadParameter("/api/v1/changes?kinds=player.renamed", "kinds");
    for (const kind of CHANGE_KINDS) expect(detail).toContain(kind);
    await expectBadParameter("/api/v1/changes?kinds=player.created,nope", "kinds");
    await expectBadParameter("/api/v1/changes?kinds=", "kinds");
    await expectBadParameter(`/api/v1/changes?player_id=${"P".repeat(65)}`, "player_id");
    await expectBadParameter("/api/v1/changes?player_id=P%01", "player_id");
    await expectBadParameter("/api/v1/changes?player_id=", "player_id");
    await expectBadParameter("/api/v1/changes?include=records", "include");
    expect((await get("/api/v1/changes?player_id=P000001&player_id=P000002")).status).toBe(400);
  });

  it("is described by the OpenAPI document: the parameters and the record, one of profile, transaction or null", () => {
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, { get: { parameters: { name: string; in: string }[] } }>;
      components: { schemas: Record<string, { properties?: Record<string, unknown>; oneOf?: unknown[] }> };
    };
    const names = doc.paths["/changes"]?.get.parameters.filter((p) => p.in === "query").map((p) => p.name);
    expect(names).toEqual(expect.arrayContaining(["include", "kinds", "player_id"]));
    expect(doc.components.schemas.Change?.properties?.record).toEqual({
      $ref: "#/components/schemas/ChangeRecord",
    });
    expect(doc.components.schemas.ChangeRecord?.oneOf).toEqual([
      { $ref: "#/components/schemas/PlayerProfile" },
      { $ref: "#/components/schemas/Transaction" },
      { type: "null" },
    ]);
  });
});

describe("a syncer following the feed with include=record", () => {
  it("follows 1,000 changes in at most 5 requests and ends equal to a full read", async () => {
    const kept = Array.from({ length: 60 }, (_, i) => `PFEEDJS${String(i + 1).padStart(3, "0")}`);
    const owner = "PFEEDJS001";
    const syncer = new ChangeFeedSyncer(kit, kept, owner, { records: true, limit: 250 });
    await syncer.fullSync();
    const start = syncer.position;
    const readsBefore = { ...syncer.stats };

    // Statements of one kind each: one entry per thing per database transaction.
    await sql.query(
      `INSERT INTO players (id, name, email, phone, currency, registration_date)
       SELECT 'PFEEDJS' || lpad(i::text, 3, '0'), 'Feed Sync ' || i, 'sync' || i || '@example.com',
              '+44 7700 9' || lpad(i::text, 5, '0'), 'EUR', now()
       FROM generate_series(1, 60) i`,
    );
    await sql.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, created_by, created_at,
         status)
       SELECT 'TFEEDJS' || lpad(i::text, 4, '0'), CASE WHEN i <= 400 THEN $1 ELSE 'PFEEDJS002' END,
              now() - i * interval '1 hour', 'deposit', 'Card Deposit', i + 0.00000001, 'EUR', 'System', now(), 'pending'
       FROM generate_series(1, 450) i`,
      [owner],
    );
    await sql.query(
      "UPDATE transactions SET status = 'completed', completed_at = now() WHERE id LIKE 'TFEEDJS%' AND id <= 'TFEEDJS0300'",
    );
    await sql.query("DELETE FROM transactions WHERE id > 'TFEEDJS0350' AND id <= 'TFEEDJS0400'");
    for (let round = 0; round < 3; round += 1) {
      await sql.query(
        "UPDATE players SET name = name || '.' WHERE id LIKE 'PFEEDJS%' AND id <> 'PFEEDJS060'",
      );
    }
    await sql.query("DELETE FROM players WHERE id = 'PFEEDJS060'");
    const { rows } = await sql.query<{ n: number }>(
      "SELECT count(*)::int AS n FROM changes WHERE position > $1",
      [start],
    );
    const written = rows[0]?.n ?? 0;
    expect(written).toBeGreaterThanOrEqual(1000);
    expect(written).toBeLessThanOrEqual(1250);

    const applied = await syncer.follow();
    expect(applied).toBe(written);
    expect(syncer.stats.pages).toBeLessThanOrEqual(5);
    // The pages were the only requests: no profile or transaction read per change.
    expect(syncer.stats.profileReads).toBe(readsBefore.profileReads);
    expect(syncer.stats.transactionReads).toBe(readsBefore.transactionReads);

    const fresh = new ChangeFeedSyncer(kit, kept, owner);
    await fresh.fullSync();
    expect(fresh.state.profiles.size).toBe(59);
    expect(fresh.state.transactions.size).toBe(350);
    expect(syncer.state.profiles).toEqual(fresh.state.profiles);
    expect(syncer.state.transactions).toEqual(fresh.state.transactions);
  });
});
