import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { GET as profileRoute } from "@/app/api/v1/players/[playerId]/route";
import { GET as transactionsRoute } from "@/app/api/v1/players/[playerId]/transactions/route";
import { getAuditQueue } from "@/lib/audit/audit-recorder";
import type { Role } from "@/lib/auth/roles";
import { createSession } from "@/lib/auth/session-store";
import { parseJsonWithDecimals } from "@/lib/client/lossless-json";
import { DECIMAL_KEYS, type PlayerProfileData, type TransactionListData } from "@/lib/client/wire";
import { getPrisma } from "@/lib/db/client";
import { createRouteKit, type RouteKit } from "@/test/support/route-test-kit";
import { apiAsUser, type PageUser } from "./in-process-api.ts";

const PLAYER = "P000197";
let kit: RouteKit;

beforeAll(async () => {
  kit = await createRouteKit(inject("databaseUrl"));
});
afterAll(async () => {
  await getAuditQueue().flush();
  await getPrisma().$disconnect();
});

/** A page's signed-in user, with the sign-in session their tokens are minted from. */
async function pageUser(role: Role): Promise<PageUser> {
  const session = await createSession({
    subject: `w1-${role}-${randomUUID()}`,
    role,
    provider: "credentials",
  });
  return { id: session.subject, name: "Page User", role, sessionId: session.id };
}

/** What the browser gets for the same read over the API with the same user's token. */
async function overTheApi(path: string, user: PageUser): Promise<unknown> {
  const token = await kit.token(user.id, { role: user.role, sid: user.sessionId });
  const response = await kit.call("GET", path, { token, headers: { "x-session-id": user.sessionId } });
  expect(response.status).toBe(200);
  return parseJsonWithDecimals(response.text, DECIMAL_KEYS);
}

describe("reads of a server-rendered page through the API's handlers", () => {
  it("gives a support agent the API's masked profile and exact transactions, and audits both reads", async () => {
    const user = await pageUser("support_agent");
    const read = await apiAsUser(user, new Headers({ "x-forwarded-for": "192.0.2.7" }));
    const profile = await read<PlayerProfileData, { playerId: string }>({
      handler: profileRoute,
      params: { playerId: PLAYER },
      path: `/api/v1/players/${PLAYER}`,
    });
    const path = `/api/v1/players/${PLAYER}/transactions?event_type=deposit&limit=5&offset=0`;
    const list = await read<TransactionListData, { playerId: string }>({
      handler: transactionsRoute,
      params: { playerId: PLAYER },
      path,
    });

    expect(profile.ok && profile.data.email).toMatch(/^.\*\*\*@/);
    expect(profile.ok && profile.data).toEqual(await overTheApi(`/api/v1/players/${PLAYER}`, user));
    expect(list.ok && list.data).toEqual(await overTheApi(path, user));
    // Money stays the API's digits (a string in the browser's shape), never a float.
    expect(typeof (list.ok && list.data.transactions[0]?.amount)).toBe("string");

    await getAuditQueue().flush();
    const events = await getPrisma().auditEvent.findMany({
      where: { sessionId: user.sessionId, requestId: { not: "" } },
      orderBy: { id: "asc" },
    });
    // The two in-process reads, then the two comparison reads over the API: alike but for the request id.
    expect(events.map((e) => e.operation)).toEqual(["profile", "transactions", "profile", "transactions"]);
    expect(events[0]).toMatchObject({
      subject: user.id,
      scopes: ["players:read"],
      playerId: PLAYER,
      filters: {},
      clientAddress: "192.0.2.7",
    });
    expect(events[1]).toMatchObject({
      subject: user.id,
      filters: { event_type: "deposit", limit: "5", offset: "0" },
    });
    expect(events[0]?.filters).toEqual(events[2]?.filters);
    expect(events[1]?.filters).toEqual(events[3]?.filters);
    expect(new Set(events.map((e) => e.requestId)).size).toBe(4);
  });

  it("gives a VIP manager the full contact data", async () => {
    const read = await apiAsUser(await pageUser("vip_manager"), new Headers());
    const profile = await read<PlayerProfileData, { playerId: string }>({
      handler: profileRoute,
      params: { playerId: PLAYER },
      path: `/api/v1/players/${PLAYER}`,
    });
    expect(profile.ok && profile.data.email).toMatch(/^[^*]+@/);
  });

  it("answers a failed read with its status and records nothing", async () => {
    const user = await pageUser("admin");
    const read = await apiAsUser(user, new Headers());
    const missing = await read<PlayerProfileData, { playerId: string }>({
      handler: profileRoute,
      params: { playerId: "P999999" },
      path: "/api/v1/players/P999999",
    });
    expect(missing).toEqual({ ok: false, status: 404 });
    await getAuditQueue().flush();
    expect(await getPrisma().auditEvent.count({ where: { sessionId: user.sessionId } })).toBe(0);
  });
});
