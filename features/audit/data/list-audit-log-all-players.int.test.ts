import { randomUUID } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { type AuditLogQuery, auditLogQuerySchema } from "@/features/audit/schema/audit";
import { parseQuery } from "@/platform/http/query";
import { createTestPrisma } from "@/test/support/test-client";
import type { AuditRecord } from "../../../platform/audit/audit-queue.ts";
import { recordAuditEvents } from "../../../platform/audit/record-audit-events.ts";
import { listAuditLogAllPlayers } from "./list-audit-log-all-players.ts";

const db = createTestPrisma();
afterAll(() => db.$disconnect());

// Other files add events too: this file's events carry subjects and player ids of their own.
const RUN = randomUUID().slice(0, 8);
const ANA = `ana-${RUN}`;
const BEN = `ben-${RUN}`;
const P1 = `AL1-${RUN}`;
const P2 = `AL2-${RUN}`;

const base: AuditRecord = {
  occurredAt: new Date("2026-03-10T12:00:00.000Z"),
  subject: ANA,
  subjectName: "Ana Lopez",
  authMode: "jwt",
  scopes: ["players:read", "audit:read"],
  sessionId: `s-${RUN}`,
  operation: "profile",
  playerId: P1,
  resultPlayerIds: [],
  filters: {},
  requestId: "x",
  clientAddress: "192.0.2.20",
};

/** The query string → the data function's arguments, as the route does it. */
function query(params: Record<string, string>): AuditLogQuery {
  return parseQuery(auditLogQuerySchema, new URLSearchParams(params));
}

async function requestIds(params: Record<string, string>): Promise<string[]> {
  const { cursor, limit, ...filters } = query({ limit: "100", ...params });
  const page = await listAuditLogAllPlayers({ filters, cursor, limit }, db);
  return page.events.map((e) => e.request_id);
}

const at = (iso: string) => new Date(iso);

describe("listAuditLog (the admins' audit page)", () => {
  it("filters by user, player (path or search result), operation and period, at their edges", async () => {
    await recordAuditEvents(
      [
        { ...base, requestId: "a1", occurredAt: at("2026-03-09T23:59:59.999Z") },
        { ...base, requestId: "a2", occurredAt: at("2026-03-10T00:00:00.000Z"), operation: "transactions" },
        { ...base, requestId: "a3", occurredAt: at("2026-03-10T23:59:59.999Z"), playerId: P2 },
        { ...base, requestId: "a4", occurredAt: at("2026-03-11T00:00:00.000Z") },
        {
          ...base,
          requestId: "b1",
          subject: BEN,
          subjectName: null,
          operation: "search",
          playerId: null,
          resultPlayerIds: [P2, P1],
        },
        { ...base, requestId: "b2", subject: BEN, subjectName: null, playerId: P2, operation: "export" },
      ],
      { db },
    );

    // Newest first (by sequence number), exact subject match: a prefix of it matches nothing.
    expect(await requestIds({ subject: ANA })).toEqual(["a4", "a3", "a2", "a1"]);
    expect(await requestIds({ subject: ANA.slice(0, -1) })).toEqual([]);
    // A player is read when named in the path or returned by a search.
    expect(await requestIds({ subject: BEN, player_id: P1 })).toEqual(["b1"]);
    expect(await requestIds({ player_id: P2 })).toEqual(["b2", "b1", "a3"]);
    expect(await requestIds({ player_id: P2, operation: "export,profile" })).toEqual(["b2", "a3"]);
    // A date alone covers that whole UTC day, both bounds inclusive to the millisecond.
    expect(await requestIds({ subject: ANA, from_date: "2026-03-10", to_date: "2026-03-10" })).toEqual([
      "a3",
      "a2",
    ]);
    expect(
      await requestIds({
        subject: ANA,
        from_date: "2026-03-09T23:59:59.999Z",
        to_date: "2026-03-10T00:00:00.000Z",
      }),
    ).toEqual(["a2", "a1"]);
    expect(await requestIds({ subject: ANA, from_date: "2026-03-11T00:00:00.001Z" })).toEqual([]);
    expect(await requestIds({ subject: ANA, to_date: "2026-03-09T23:59:59.998Z" })).toEqual([]);
    // With an offset: 01:00+01:00 is midnight UTC.
    expect(await requestIds({ subject: ANA, to_date: "2026-03-10T01:00:00+01:00" })).toEqual(["a2", "a1"]);
  });

  it("returns the person's name beside the subject; null when the token named nobody", async () => {
    const { events } = await listAuditLogAllPlayers(
      { filters: { player_id: P2, operation: ["export", "profile"] }, limit: 5 },
      db,
    );
    expect(events.map((e) => [e.request_id, e.subject, e.subject_name])).toEqual([
      ["b2", BEN, null],
      ["a3", ANA, "Ana Lopez"],
    ]);
  });

  it("keeps pages stable while new events arrive: no gaps, no repeats, newcomers only on a new first page", async () => {
    const who = `pager-${RUN}`;
    await recordAuditEvents(
      Array.from({ length: 7 }, (_, i) => ({ ...base, subject: who, requestId: `p${i}` })),
      { db },
    );
    const first = await listAuditLogAllPlayers({ filters: { subject: who }, limit: 3 }, db);
    expect(first.events.map((e) => e.request_id)).toEqual(["p6", "p5", "p4"]);
    await recordAuditEvents([{ ...base, subject: who, requestId: "late1" }], { db });
    const seen = [...first.events];
    let cursor = first.nextCursor;
    while (cursor) {
      const page = await listAuditLogAllPlayers({ filters: { subject: who }, cursor, limit: 3 }, db);
      await recordAuditEvents([{ ...base, subject: who, requestId: `late-${cursor}` }], { db });
      seen.push(...page.events);
      cursor = page.nextCursor;
    }
    expect(seen.map((e) => e.request_id)).toEqual(["p6", "p5", "p4", "p3", "p2", "p1", "p0"]);
    const fresh = await listAuditLogAllPlayers({ filters: { subject: who }, limit: 3 }, db);
    expect(fresh.events[0]?.request_id).toMatch(/^late-/);
  });

  it("ends with a null cursor exactly when the last page is full", async () => {
    const who = `edge-${RUN}`;
    await recordAuditEvents(
      [1, 2].map((i) => ({ ...base, subject: who, requestId: `e${i}` })),
      { db },
    );
    const page = await listAuditLogAllPlayers({ filters: { subject: who }, limit: 2 }, db);
    expect(page.events).toHaveLength(2);
    expect(page.nextCursor).toBeNull();
  });
});

describe("the audit page's user by name, and who read a player (issue 23)", () => {
  const CARLA = `carla-${RUN}`;
  const DAN = `dan-${RUN}`;
  const P3 = `AL3-${RUN}`;
  // Display names unique to this run, so that other files' events never match the name filter.
  const carlaName = `Carla Ñúñez ${RUN}`;
  const danName = `Dan Carlsson ${RUN}`;

  it("user matches the id exactly, or the display name or its beginning in any case", async () => {
    await recordAuditEvents(
      [
        { ...base, requestId: "c1", subject: CARLA, subjectName: carlaName, playerId: P3 },
        { ...base, requestId: "d1", subject: DAN, subjectName: danName, playerId: P3 },
        {
          ...base,
          requestId: "c2",
          subject: CARLA,
          subjectName: carlaName,
          playerId: P3,
          operation: "transactions",
        },
        {
          ...base,
          requestId: "c3",
          subject: CARLA,
          subjectName: carlaName,
          operation: "audit_trail",
          playerId: P3,
        },
        {
          ...base,
          requestId: "d2",
          subject: DAN,
          subjectName: danName,
          operation: "search",
          playerId: null,
          resultPlayerIds: [P3],
          occurredAt: at("2026-03-10T13:00:00.000Z"),
        },
      ],
      { db },
    );
    expect(await requestIds({ user: CARLA })).toEqual(["c3", "c2", "c1"]);
    expect(await requestIds({ user: carlaName.toUpperCase() })).toEqual(["c3", "c2", "c1"]);
    expect(await requestIds({ user: `carla ñúñez ${RUN}`.slice(0, -2) })).toEqual(["c3", "c2", "c1"]);
    // Not a part from the middle, and an id only whole.
    expect(await requestIds({ user: `ñúñez ${RUN}` })).toEqual([]);
    expect(await requestIds({ user: CARLA.slice(0, -1) })).toEqual([]);
    // LIKE's wildcards are literal.
    expect(await requestIds({ user: `Carla_Ñúñez ${RUN}` })).toEqual([]);
    expect(await requestIds({ user: `%${RUN}` })).toEqual([]);
    expect(await requestIds({ user: danName, player_id: P3 })).toEqual(["d2", "d1"]);
  });

  it("with a player: who read it, how often, when last; audit-trail reads left out", async () => {
    const { readers, events } = await listAuditLogAllPlayers({ filters: { player_id: P3 }, limit: 2 }, db);
    expect(events.map((e) => e.request_id)).toEqual(["d2", "c3"]);
    expect(readers).toEqual([
      { subject: DAN, subject_name: danName, reads: 2, last_read_at: "2026-03-10T13:00:00.000Z" },
      { subject: CARLA, subject_name: carlaName, reads: 2, last_read_at: "2026-03-10T12:00:00.000Z" },
    ]);
    // The same filters narrow the summary: one operation, one user, a period without reads.
    const filtered = async (filters: Record<string, string>) => {
      const { cursor: _, limit, ...f } = query({ player_id: P3, ...filters });
      return (await listAuditLogAllPlayers({ filters: f, limit }, db)).readers;
    };
    expect(await filtered({ operation: "transactions" })).toEqual([
      { subject: CARLA, subject_name: carlaName, reads: 1, last_read_at: "2026-03-10T12:00:00.000Z" },
    ]);
    expect((await filtered({ user: "dan" }))?.map((r) => r.subject)).toEqual([DAN]);
    expect(await filtered({ from_date: "2026-03-11" })).toEqual([]);
    // Without a player there is no summary.
    expect((await listAuditLogAllPlayers({ filters: { user: CARLA }, limit: 2 }, db)).readers).toBeNull();
  });
});
