import { Writable } from "node:stream";
import { SignJWT } from "jose";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { AuditQueue, type AuditRecord } from "@/platform/audit/audit-queue";
import { setAuditQueue } from "@/platform/audit/audit-recorder";
import { isDatabaseUnavailable } from "@/platform/db/unavailable";
import { createLogger } from "@/platform/log/log";
import { notFound } from "@/platform/problems/problem";
import { restoreEnv, stubEnv } from "@/test/support/env";
import { withApi } from "./api-handler.ts";
import { setRateLimiter } from "./rate-limit.ts";
import { MALFORMED_PATH_HEADER } from "./request-stamp.mjs";
import { jsonResponse } from "./responses.ts";

const SECRET = "unit-test-secret-unit-test-secret!";
const logLines: string[] = [];
const g = globalThis as unknown as { parLogger?: unknown };

let rows: AuditRecord[] = [];
let queue: AuditQueue;

beforeEach(() => {
  stubEnv({
    DATABASE_URL: undefined,
    AUTH_MODE: undefined,
    REDIS_URL: undefined,
    RATE_LIMIT_MAX: "3",
    RATE_LIMIT_WINDOW_SECONDS: "60",
    AUTH_JWT_SECRET: SECRET,
  });
  setRateLimiter(undefined);
  rows = [];
  queue = new AuditQueue(
    async (records) => {
      rows.push(...records);
      return undefined;
    },
    { batchSize: 100, maxPending: 1_000 },
  );
  setAuditQueue(queue);
  logLines.length = 0;
  g.parLogger = createLogger(
    new Writable({
      write(chunk, _e, done) {
        logLines.push(String(chunk));
        done();
      },
    }),
    "debug",
  );
});
afterEach(() => {
  restoreEnv();
  setRateLimiter(undefined);
  setAuditQueue(undefined);
});
afterAll(() => {
  g.parLogger = undefined;
});

const profile = withApi<{ playerId: string }>(async ({ params, audit }) => {
  if (params.playerId === "missing") {
    audit({ operation: "profile", playerId: params.playerId });
    throw notFound("no such player");
  }
  audit({ operation: "profile", playerId: params.playerId });
  return jsonResponse({ id: params.playerId });
});
const route = (playerId = "P1") => ({ params: Promise.resolve({ playerId }) });

function request(
  token: string | null,
  init: { ip?: string; url?: string; headers?: Record<string, string> } = {},
) {
  const headers: Record<string, string> = {
    "x-session-id": "sess-9",
    "x-forwarded-for": init.ip ?? "192.0.2.10",
  };
  if (token) headers.authorization = `Bearer ${token}`;
  return new Request(init.url ?? "http://localhost/api/v1/players/P1", {
    headers: { ...headers, ...init.headers },
  });
}

const jwt = (sub: string, claims: Record<string, unknown>) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setExpirationTime("5m")
    .sign(new TextEncoder().encode(SECRET));

describe("withApi: fair use", () => {
  it("answers 429 with Retry-After and RateLimit headers once a caller's quota is used", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push(await profile(request("t"), route()));
    expect(statuses.map((r) => r.status)).toEqual([200, 200, 200, 429]);
    const limited = statuses[3];
    expect(limited?.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(limited?.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(limited?.headers.get("ratelimit")).toMatch(/^"default";r=0;t=\d+$/);
    expect(statuses[0]?.headers.get("ratelimit-policy")).toBe('"default";q=3;w=60');
    expect(await limited?.json()).toMatchObject({
      status: 429,
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/rate-limited$/),
    });
  });

  it("keys verified callers by subject and everyone else by address, so one cannot starve another", async () => {
    for (let i = 0; i < 3; i++) await profile(request("t", { ip: "192.0.2.1" }), route());
    expect((await profile(request("t", { ip: "192.0.2.1" }), route())).status).toBe(429);
    expect((await profile(request("t", { ip: "192.0.2.2" }), route())).status).toBe(200);
    const alice = await jwt("alice", { roles: ["vip_manager"] });
    for (let i = 0; i < 3; i++) await profile(request(alice, { ip: "192.0.2.1" }), route());
    expect((await profile(request(alice, { ip: "192.0.2.1" }), route())).status).toBe(429);
    const bob = await jwt("bob", { roles: ["vip_manager"] });
    expect((await profile(request(bob, { ip: "192.0.2.1" }), route())).status).toBe(200);
  });

  it("counts requests with bad credentials too (guessing tokens is limited)", async () => {
    const statuses = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await profile(request(null, { ip: "192.0.2.3" }), route())).status);
    expect(statuses).toEqual([401, 401, 401, 429]);
  });
});

describe("withApi: least privilege", () => {
  it("answers 403 insufficient_scope when the token lacks the read scope", async () => {
    stubEnv({ AUTH_MODE: "jwt" });
    const res = await profile(request(await jwt("nobody", {})), route());
    expect(res.status).toBe(403);
    expect(res.headers.get("www-authenticate")).toContain('error="insufficient_scope"');
    expect(await res.json()).toMatchObject({
      status: 403,
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/insufficient-scope$/),
    });
  });
});

describe("withApi: accountability", () => {
  it("records a successful read with who, session, player, filters, request id and address", async () => {
    const url = "http://localhost/api/v1/players/P1?event_type=bet&event_type=win&limit=5";
    const res = await profile(
      request(await jwt("agent7", { roles: ["support_agent"], name: "Agent Seven" }), {
        url,
        headers: { "x-request-id": "req-42" },
      }),
      route("P1"),
    );
    expect(res.status).toBe(200);
    await queue.flush();
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      subject: "agent7",
      subjectName: "Agent Seven",
      authMode: "demo",
      scopes: ["players:read"],
      sessionId: "sess-9",
      operation: "profile",
      playerId: "P1",
      filters: { event_type: ["bet", "win"], limit: "5" },
      requestId: res.headers.get("x-request-id"),
      clientRequestId: "req-42",
      clientAddress: "192.0.2.10",
    });
    expect(rows[0]?.requestId).not.toBe("req-42");
  });

  it("answers only once the read's record is committed", async () => {
    const commits: Array<() => void> = [];
    setAuditQueue(
      new AuditQueue(
        (records) =>
          new Promise((resolve) =>
            commits.push(() => {
              rows.push(...records);
              resolve(undefined);
            }),
          ),
        { batchSize: 100, maxPending: 1_000 },
      ),
    );
    let answered = false;
    const pending = profile(request("t"), route()).then((res) => {
      answered = true;
      return res;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(answered).toBe(false);
    expect(commits).toHaveLength(1);
    commits[0]?.();
    expect((await pending).status).toBe(200);
    expect(rows).toHaveLength(1);
  });

  it("answers 503, never 200, when the audit database refuses the record", async () => {
    setAuditQueue(
      new AuditQueue(
        async () => {
          throw new Error("permission denied for table audit_events");
        },
        { batchSize: 100, maxPending: 1_000 },
      ),
    );
    const res = await profile(request("t"), route());
    expect(res.status).toBe(503);
    expect(await res.json()).toMatchObject({ status: 503, detail: expect.stringContaining("audit trail") });
  });

  it("records nothing for failed requests", async () => {
    expect((await profile(request("t"), route("missing"))).status).toBe(404);
    expect((await profile(request(null), route("P1"))).status).toBe(401);
    await queue.flush();
    expect(rows).toHaveLength(0);
  });

  it("refuses with 503 rather than serve a read it cannot account for", async () => {
    const stuck = new AuditQueue(() => new Promise(() => {}), { batchSize: 1, maxPending: 1 });
    setAuditQueue(stuck);
    void profile(request("t"), route()); // waits for ever for its record's commit
    await new Promise((r) => setTimeout(r, 10));
    const res = await profile(request("t"), route());
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBeTruthy();
  });
});

describe("withApi: hostile input and logs", () => {
  it("answers 400 for a path the server flagged as malformed percent-encoding", async () => {
    const res = await profile(request("t", { headers: { [MALFORMED_PATH_HEADER]: "1" } }), route("%ZZ"));
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ errors: [{ name: "path", in: "path" }] });
  });

  it("logs request id, route, status and duration, never the token", async () => {
    const token = await jwt("alice", { roles: ["admin"] });
    await profile(request(token, { headers: { "x-request-id": "req-log" } }), route());
    const line = logLines
      .map((l) => JSON.parse(l))
      .find((l) => l.clientRequestId === "req-log" && l.msg === "request");
    expect(line).toMatchObject({
      msg: "request",
      route: "/api/v1/players/P1",
      status: 200,
      subject: "alice",
    });
    expect(typeof line?.durationMs).toBe("number");
    expect(logLines.join("")).not.toContain(token);
  });

  it("classifies database outages and timeouts as 503, not bugs", () => {
    expect(isDatabaseUnavailable(Object.assign(new Error("x"), { code: "ECONNREFUSED" }))).toBe(true);
    const prismaTimeout = Object.assign(new Error("Raw query failed."), {
      code: "P2010",
      meta: { driverAdapterError: { cause: { kind: "postgres", code: "57014" } } },
    });
    expect(isDatabaseUnavailable(prismaTimeout)).toBe(true);
    expect(isDatabaseUnavailable(new Error("Connection terminated unexpectedly"))).toBe(true);
    expect(isDatabaseUnavailable(new TypeError("undefined is not a function"))).toBe(false);
  });
});
