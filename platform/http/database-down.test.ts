import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { GET as health } from "@/app/api/health/route";
import { GET as profile } from "@/app/api/v1/players/[playerId]/route";
import { GET as transactions } from "@/app/api/v1/players/[playerId]/transactions/route";
import { GET as search } from "@/app/api/v1/players/route";
import { restoreEnv, stubEnv } from "@/test/support/env";

/*
 * The routes with the database down: a port that refuses connections. Every read must be a 503
 * problem (retry later), never a 500, and health must say "degraded".
 */
let closedPort: number;

beforeAll(async () => {
  // Take a free port and release it: connections to it are refused.
  const probe: Server = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  closedPort = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  stubEnv({
    DATABASE_URL: `postgresql://postgres@127.0.0.1:${closedPort}/none`,
    AUTH_MODE: "demo",
    LOG_LEVEL: "silent",
  });
  (globalThis as { prisma?: unknown }).prisma = undefined;
});
afterAll(() => {
  restoreEnv();
  (globalThis as { prisma?: unknown }).prisma = undefined;
});

const headers = { Authorization: "Bearer t", "X-Session-ID": "s" };
const get = (path: string) => new Request(`http://localhost${path}`, { headers });
const params = <P>(p: P) => ({ params: Promise.resolve(p) });

describe("with the database unreachable", () => {
  it("health is a 503 reporting the database as unreachable", async () => {
    const res = await health(get("/api/health"), params({}));
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(await res.json()).toMatchObject({ status: "degraded", database: { reachable: false } });
  });

  it("every player operation is a 503 problem, not a 500", async () => {
    const responses = [
      await profile(get("/api/v1/players/P000001"), params({ playerId: "P000001" })),
      await transactions(get("/api/v1/players/P000001/transactions"), params({ playerId: "P000001" })),
      await search(get("/api/v1/players?q=a"), params({})),
    ];
    for (const res of responses) {
      expect(res.status).toBe(503);
      expect(res.headers.get("content-type")).toBe("application/problem+json");
      expect(res.headers.get("retry-after")).toBe("5");
      const body = await res.json();
      expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/service-unavailable$/);
      expect(JSON.stringify(body)).not.toContain(String(closedPort));
    }
  });

  it("input errors are still reported as 400 before the database is touched", async () => {
    const res = await transactions(
      get("/api/v1/players/P1/transactions?limit=0"),
      params({ playerId: "P1" }),
    );
    expect(res.status).toBe(400);
  });
});
