import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import type { AuditEvent } from "@/features/audit/schema/audit";
import { createTestPrisma } from "@/test/support/test-client";
import type { AuditRecord } from "../../../platform/audit/audit-queue.ts";
import { recordAuditEvents } from "../../../platform/audit/record-audit-events.ts";
import { listPlayerAuditTrail } from "./list-player-audit-trail.ts";

/** Data functions throw this for a player that does not exist (platform/http/errors.ts); the API answers 404. */
const NOT_FOUND = { name: "AppError", code: "NOT_FOUND" };

const db = createTestPrisma();
afterAll(() => db.$disconnect());

// Other test files read players too (and so add audit events); this file tells its own events apart by
// session id, and checks paging over whatever else is there.
const SESSION = `audit-trail-${randomUUID()}`;
const PLAYER = "P000199";
const OTHER = "P000198";

const base: AuditRecord = {
  occurredAt: new Date("2026-11-20T12:00:00.000Z"),
  subject: "agent7",
  authMode: "jwt",
  scopes: ["players:read"],
  sessionId: SESSION,
  operation: "profile",
  playerId: PLAYER,
  resultPlayerIds: [],
  filters: {},
  requestId: "r0",
  clientAddress: "192.0.2.10",
};

/** Every page of a player's trail, following next_cursor. */
async function allPages(playerId: string, limit: number, operation?: AuditEvent["operation"][]) {
  const pages: AuditEvent[][] = [];
  let cursor: string | undefined;
  let total = -1;
  do {
    const page = await listPlayerAuditTrail(
      { playerId, limit, cursor, ...(operation ? { operation } : {}) },
      db,
    );
    if (!page) throw new Error("player not found");
    total = page.total;
    pages.push(page.events);
    cursor = page.nextCursor ?? undefined;
  } while (cursor);
  return { pages, events: pages.flat(), total };
}
const mine = (events: AuditEvent[]) =>
  events.filter((e) => e.session_id === SESSION).map((e) => e.request_id);

describe("audit trail storage", () => {
  it("stores a batch in one call; pages a player's trail newest first, by cursor, without gaps or repeats", async () => {
    await recordAuditEvents(
      [
        { ...base, requestId: "r1" },
        {
          ...base,
          requestId: "r2",
          operation: "transactions",
          filters: { event_type: ["bet", "win"], limit: "5" },
        },
        { ...base, requestId: "r3", operation: "search", playerId: null, resultPlayerIds: [OTHER, PLAYER] },
        { ...base, requestId: "r4", playerId: OTHER },
        { ...base, requestId: "r5", operation: "search", playerId: null, resultPlayerIds: [OTHER] },
        { ...base, requestId: "r6", operation: "export" },
      ],
      { db },
    );

    const { pages, events, total } = await allPages(PLAYER, 2);
    expect(pages.every((p) => p.length <= 2)).toBe(true);
    expect(events).toHaveLength(total);
    const ids = events.map((e) => BigInt(e.id));
    expect(ids.every((id, i) => i === 0 || id < (ids[i - 1] ?? 0n))).toBe(true);
    expect(mine(events)).toEqual(["r6", "r3", "r2", "r1"]);

    expect(events.find((e) => e.request_id === "r2" && e.session_id === SESSION)).toMatchObject({
      subject: "agent7",
      auth_mode: "jwt",
      scopes: ["players:read"],
      operation: "transactions",
      player_id: PLAYER,
      result_player_ids: [],
      filters: { event_type: ["bet", "win"], limit: "5" },
      client_address: "192.0.2.10",
      occurred_at: "2026-11-20T12:00:00.000Z",
    });
  });

  it("filters by operation and includes searches whose results contained the player", async () => {
    const searches = await allPages(PLAYER, 50, ["search"]);
    expect(searches.events.every((e) => e.operation === "search")).toBe(true);
    expect(mine(searches.events)).toEqual(["r3"]);
    expect(mine((await allPages(OTHER, 50)).events)).toEqual(["r5", "r4", "r3"]);
  });

  it("keeps pages stable while new events arrive", async () => {
    const first = await listPlayerAuditTrail({ playerId: PLAYER, limit: 1 }, db);
    const next = { limit: 1, cursor: first?.nextCursor ?? undefined };
    const before = await listPlayerAuditTrail({ playerId: PLAYER, ...next }, db);
    await recordAuditEvents([{ ...base, requestId: "r7" }], { db });
    const after = await listPlayerAuditTrail({ playerId: PLAYER, ...next }, db);
    expect(after?.events).toEqual(before?.events);
  });

  it("stores a NUL in any text as U+FFFD, with the rest of its batch; text that only looks like one stays", async () => {
    const session = `${SESSION}-nul`;
    await recordAuditEvents(
      [
        {
          ...base,
          sessionId: session,
          requestId: "n1",
          subject: "a\u0000b",
          filters: { "k\u0000": "v\u0000" },
        },
        {
          ...base,
          sessionId: session,
          requestId: "n2",
          subject: "x\\u0000y",
          filters: { q: ["1", "\u0000"] },
        },
        { ...base, sessionId: session, requestId: "n3" },
      ],
      { db },
    );
    const rows = await db.$queryRaw<{ request_id: string; subject: string; filters: unknown }[]>`
      SELECT request_id, subject, filters FROM audit_events WHERE session_id = ${session} ORDER BY request_id`;
    expect(rows).toEqual([
      { request_id: "n1", subject: "a\uFFFDb", filters: { "k\uFFFD": "v\uFFFD" } },
      { request_id: "n2", subject: "x\\u0000y", filters: { q: ["1", "\uFFFD"] } },
      { request_id: "n3", subject: "agent7", filters: {} },
    ]);
  });

  it("is null for an unknown player", async () => {
    await expect(listPlayerAuditTrail({ playerId: "NO-SUCH-PLAYER", limit: 5 }, db)).rejects.toMatchObject(
      NOT_FOUND,
    );
  });

  it("is append-only: the database refuses to change or remove history", async () => {
    const count = async () =>
      (await db.$queryRaw<{ n: bigint }[]>`SELECT count(*) AS n FROM audit_events`)[0]?.n;
    const before = await count();
    expect(before).toBeGreaterThan(0n);
    await expect(db.$executeRaw`UPDATE audit_events SET subject = 'someone else'`).rejects.toThrow(
      /append-only/,
    );
    await expect(db.$executeRaw`DELETE FROM audit_events`).rejects.toThrow(/append-only/);
    await expect(db.$executeRaw`TRUNCATE audit_events`).rejects.toThrow(/append-only/);
    expect(await count()).toBe(before);
    const unchanged = await db.$queryRaw<{ n: bigint }[]>`
      SELECT count(*) AS n FROM audit_events WHERE session_id = ${SESSION} AND subject = 'agent7'`;
    expect(unchanged[0]?.n).toBe(7n);
  });

  it("takes a record's time from the database for a role that may only append; the owner keeps its own", async () => {
    const role = `${process.env.TEST_DB_PREFIX ?? "par"}_audit_writer_${process.pid}`;
    const rollback = new Error("rollback");
    const insert = (requestId: string) => `
      INSERT INTO audit_events (occurred_at, subject, auth_mode, session_id, operation, request_id)
      VALUES ('2026-01-01T00:00:00Z', 'backdater', 'jwt', '${SESSION}', 'profile', '${requestId}')
      RETURNING occurred_at AS "occurredAt", occurred_at = statement_timestamp()::timestamptz(3) AS stamped`;
    type Row = { occurredAt: Date; stamped: boolean };
    const seen: Record<string, Row[]> = {};
    // In one transaction that is rolled back: the role and its rows leave nothing behind (PGlite has no second
    // login, so the role is taken with SET LOCAL ROLE on both databases).
    await db
      .$transaction(async (tx) => {
        seen.owner = await tx.$queryRawUnsafe<Row[]>(insert("owner-backdated"));
        await tx.$executeRawUnsafe(`CREATE ROLE "${role}" NOLOGIN`);
        await tx.$executeRawUnsafe(`GRANT USAGE ON SCHEMA public TO "${role}"`);
        await tx.$executeRawUnsafe(`GRANT SELECT, INSERT ON audit_events TO "${role}"`);
        await tx.$executeRawUnsafe(`GRANT USAGE ON SEQUENCE audit_events_id_seq TO "${role}"`);
        await tx.$executeRawUnsafe(`SET LOCAL ROLE "${role}"`);
        seen.appender = await tx.$queryRawUnsafe<Row[]>(insert("appender-backdated"));
        throw rollback;
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
      });
    expect(seen.owner).toEqual([{ occurredAt: new Date("2026-01-01T00:00:00Z"), stamped: false }]);
    expect(seen.appender).toEqual([{ occurredAt: expect.any(Date), stamped: true }]);
  });
});
