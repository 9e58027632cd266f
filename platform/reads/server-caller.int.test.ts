import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { PlayerProfileData } from "@/features/players/client/queries";
import type { TransactionListData } from "@/features/transactions/client/queries";
import { AuditQueue } from "@/platform/audit/audit-queue";
import { getAuditQueue, setAuditQueue } from "@/platform/audit/audit-recorder";
import type { Role } from "@/platform/auth/roles";
import { SCOPES } from "@/platform/auth/scopes";
import { createSession, revokeSession } from "@/platform/auth/session-store";
import { type DecimalTree, parseWire } from "@/platform/client/wire-codec";
import { WIRE_DECIMALS } from "@/platform/client/wire-decimals";
import { getPrisma } from "@/platform/db/client";
import { routeKitForFile } from "@/test/support/route-test-kit";
import { playerProfileRead } from "../../features/players/reads/player-profile.ts";
import { playerTransactionsRead } from "../../features/transactions/reads/player-transactions.ts";
import { createServerCaller } from "./server-caller.ts";

const PLAYER = "P000197";
const kit = routeKitForFile();

interface PageUser {
  id: string;
  name: string;
  role: Role;
  sessionId: string;
}

/** A page's signed-in user, with their sign-in session. */
async function pageUser(role: Role): Promise<PageUser> {
  const session = await createSession({
    subject: `w1-${role}-${randomUUID()}`,
    role,
    provider: "credentials",
  });
  return { id: session.subject, name: "Page User", role, sessionId: session.id };
}

/** What the browser gets for the same read over the API with the same user's token. */
async function overTheApi(path: string, user: PageUser, decimals: DecimalTree): Promise<unknown> {
  const token = await kit.token(user.id, { role: user.role, sid: user.sessionId, name: user.name });
  const response = await kit.call("GET", path, { token, headers: { "x-session-id": user.sessionId } });
  expect(response.status).toBe(200);
  return parseWire(response.text, decimals);
}

const params = { playerId: PLAYER };
const callerFor = (user: PageUser, headers = new Headers()) =>
  createServerCaller({ sessionId: user.sessionId, name: user.name, headers });

describe("server rendering's caller of the API's reads", () => {
  it("gives a support agent the API's masked profile and exact transactions, and audits both reads", async () => {
    const user = await pageUser("support_agent");
    const caller = await callerFor(user, new Headers({ "x-forwarded-for": "192.0.2.7" }));
    const profile = await caller.read<PlayerProfileData>(
      playerProfileRead,
      { params },
      WIRE_DECIMALS.playerProfile,
    );
    const query = new URLSearchParams("event_type=deposit&limit=5&offset=0");
    const list = await caller.read<TransactionListData>(
      playerTransactionsRead,
      { params, query },
      WIRE_DECIMALS.transactionList,
    );

    expect(profile.email).toMatch(/^.\*\*\*@/);
    // The browser's shape of the same read over HTTP, to the letter.
    expect(profile).toEqual(await overTheApi(`/api/v1/players/${PLAYER}`, user, WIRE_DECIMALS.playerProfile));
    expect(list).toEqual(
      await overTheApi(
        `/api/v1/players/${PLAYER}/transactions?${query}`,
        user,
        WIRE_DECIMALS.transactionList,
      ),
    );
    // Money stays the API's digits (a string in the browser's shape), never a float.
    expect(typeof list.transactions[0]?.amount).toBe("string");

    await getAuditQueue().flush();
    const events = await getPrisma().auditEvent.findMany({
      where: { sessionId: user.sessionId, requestId: { not: "" } },
      orderBy: { id: "asc" },
    });
    // The caller's two reads, then the two comparison reads over the API: alike but for the request ids.
    expect(events.map((e) => e.operation)).toEqual(["profile", "transactions", "profile", "transactions"]);
    expect(events[0]).toMatchObject({
      subject: user.id,
      subjectName: "Page User",
      scopes: ["players:read"],
      playerId: PLAYER,
      filters: {},
      clientAddress: "192.0.2.7",
    });
    for (const field of [
      "subject",
      "subjectName",
      "authMode",
      "scopes",
      "sessionId",
      "operation",
      "playerId",
    ]) {
      expect(events[0]?.[field as keyof (typeof events)[0]]).toEqual(
        events[2]?.[field as keyof (typeof events)[0]],
      );
      expect(events[1]?.[field as keyof (typeof events)[0]]).toEqual(
        events[3]?.[field as keyof (typeof events)[0]],
      );
    }
    expect(events[1]).toMatchObject({
      subject: user.id,
      filters: { event_type: "deposit", limit: "5", offset: "0" },
    });
    expect(events[0]?.filters).toEqual(events[2]?.filters);
    expect(events[1]?.filters).toEqual(events[3]?.filters);
    expect(new Set(events.map((e) => e.requestId)).size).toBe(4);
  });

  it("gives a VIP manager the full contact data", async () => {
    const caller = await callerFor(await pageUser("vip_manager"));
    const profile = await caller.read<PlayerProfileData>(
      playerProfileRead,
      { params },
      WIRE_DECIMALS.playerProfile,
    );
    expect(profile.email).toMatch(/^[^*]+@/);
  });

  it("throws the route's problem for a missing player or a bad query, and records nothing", async () => {
    const user = await pageUser("admin");
    const caller = await callerFor(user);
    await expect(
      caller.read(playerProfileRead, { params: { playerId: "P999999" } }, WIRE_DECIMALS.playerProfile),
    ).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      caller.read(
        playerTransactionsRead,
        { params, query: new URLSearchParams("limit=0") },
        WIRE_DECIMALS.transactionList,
      ),
    ).rejects.toMatchObject({ status: 400, errors: [expect.objectContaining({ name: "limit" })] });
    await expect(
      caller.read(playerProfileRead, { params: { playerId: "" } }, WIRE_DECIMALS.playerProfile),
    ).rejects.toMatchObject({
      status: 400,
    });
    await getAuditQueue().flush();
    expect(await getPrisma().auditEvent.count({ where: { sessionId: user.sessionId } })).toBe(0);
  });
});

describe("server rendering's caller: admission", () => {
  it("refuses an ended sign-in session (401), as the token endpoint would", async () => {
    const user = await pageUser("admin");
    await revokeSession(user.sessionId, "test");
    await expect(callerFor(user)).rejects.toMatchObject({ status: 401 });
  });

  it("refuses a read the user's role has no scope for (403) and records nothing", async () => {
    const user = await pageUser("support_agent");
    const caller = await callerFor(user);
    const adminOnly = { ...playerProfileRead, scope: SCOPES.auditRead };
    await expect(caller.read(adminOnly, { params }, WIRE_DECIMALS.playerProfile)).rejects.toMatchObject({
      status: 403,
    });
    await getAuditQueue().flush();
    expect(await getPrisma().auditEvent.count({ where: { sessionId: user.sessionId } })).toBe(0);
  });

  it("answers 503 and hands back nothing when the read's audit row cannot be committed", async () => {
    const caller = await callerFor(await pageUser("admin"));
    await getAuditQueue().flush();
    const refusing = async () => {
      throw new Error("permission denied for table audit_events");
    };
    setAuditQueue(new AuditQueue(refusing, { batchSize: 100, maxPending: 1_000 }));
    try {
      await expect(
        caller.read(playerProfileRead, { params }, WIRE_DECIMALS.playerProfile),
      ).rejects.toMatchObject({
        status: 503,
        detail: expect.stringContaining("audit trail"),
      });
    } finally {
      setAuditQueue(undefined);
    }
  });

  it("refuses with 503 while the audit backlog is full, as the route does", async () => {
    const caller = await callerFor(await pageUser("admin"));
    await getAuditQueue().flush();
    setAuditQueue(new AuditQueue(() => new Promise(() => {}), { batchSize: 1, maxPending: 1 }));
    try {
      void caller.read(playerProfileRead, { params }, WIRE_DECIMALS.playerProfile).catch(() => {}); // waits for ever for its commit
      await new Promise((resolve) => setTimeout(resolve, 50));
      await expect(
        caller.read(playerProfileRead, { params }, WIRE_DECIMALS.playerProfile),
      ).rejects.toMatchObject({ status: 503 });
    } finally {
      setAuditQueue(undefined);
    }
  });
});
