import { randomUUID } from "node:crypto";
import { describe, expect, it } from "vitest";
import { encodeSortedCursor } from "@/features/transactions/schema/transaction-cursor";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { getPrisma } from "@/platform/db/client";
import { problemSchema } from "@/platform/schemas/common";
import { type KitResponse, kitToken, routeKitForFile } from "@/test/support/route-test-kit";
import { FIXTURE_PLAYER_ID, FIXTURE_READ_ROUTES } from "@/test/support/test-fixtures";

/*
 * Query keys that name Object.prototype members, and audit cursors beyond PostgreSQL's bigint, on every
 * operation through its real route handler: each is a 400 naming the parameter, never a 200 that drops the
 * key (and so leaves it out of the audit row) nor a 500.
 */
const P = `/api/v1/players/${FIXTURE_PLAYER_ID}`;
const ROUTES = FIXTURE_READ_ROUTES;
const PROTOTYPE_KEYS = Object.getOwnPropertyNames(Object.prototype);

const kit = routeKitForFile();
const admin = await kitToken("admin1", { roles: ["admin"] });

const withQuery = (route: string, query: string) => `${route}${route.includes("?") ? "&" : "?"}${query}`;

function expectBadParameter(res: KitResponse, name: string, context: string): void {
  expect(res.status, `${context}: ${res.text.slice(0, 300)}`).toBe(400);
  expect(res.contentType).toBe("application/problem+json");
  expect(
    problemSchema.parse(res.json).errors?.map((e) => e.name),
    context,
  ).toContain(name);
}

describe("query keys named like Object.prototype members", () => {
  it("covers the keys an attacker would try", () => {
    expect(PROTOTYPE_KEYS).toEqual(
      expect.arrayContaining(["__proto__", "constructor", "toString", "hasOwnProperty", "valueOf"]),
    );
  });

  it("every route answers 200 without them (so a 400 below is the key's doing)", async () => {
    for (const route of ROUTES)
      expect((await kit.call("GET", route, { token: admin })).status, route).toBe(200);
  });

  it("are a 400 naming the key on every route, as k=1, k[]=1 and a bare k, and leave no audit row", async () => {
    const requestIds: string[] = [];
    for (const route of ROUTES) {
      for (const key of PROTOTYPE_KEYS) {
        for (const query of [`${key}=1`, `${key}[]=1`, key]) {
          const requestId = randomUUID();
          requestIds.push(requestId);
          const res = await kit.call("GET", withQuery(route, query), {
            token: admin,
            headers: { "x-request-id": requestId },
          });
          expectBadParameter(res, key, `${route} ${query}`);
        }
      }
    }
    await getAuditQueue().flush();
    const [row] = await getPrisma().$queryRaw<{ n: number }[]>`
      SELECT count(*)::int AS n FROM audit_events WHERE request_id = ANY(${requestIds})`;
    expect(row?.n).toBe(0);
  });
});

describe("cursors beyond the database's range", () => {
  it("an audit cursor above bigint's maximum is a 400 naming cursor, on both audit routes; the maximum is fine", async () => {
    for (const route of [`${P}/audit`, "/api/v1/audit"]) {
      for (const cursor of ["9999999999999999999", "9223372036854775808"]) {
        const res = await kit.call("GET", `${route}?cursor=${cursor}`, { token: admin });
        expectBadParameter(res, "cursor", `${route} cursor=${cursor}`);
      }
      const max = await kit.call("GET", `${route}?cursor=9223372036854775807`, { token: admin });
      expect(max.status, max.text).toBe(200);
    }
  });

  it("an amount cursor with 30 integer digits (beyond numeric(20,8)) is no 500 on the list", async () => {
    for (const sort of ["amount_desc", "amount_asc"] as const) {
      const cursor = encodeSortedCursor({
        sort,
        key: { date: new Date("2025-03-01T00:00:00Z"), id: "X", amount: "9".repeat(30) },
      });
      const res = await kit.call("GET", `${P}/transactions?sort=${sort}&cursor=${cursor}`, { token: admin });
      expect(res.status, res.text.slice(0, 300)).toBe(200);
    }
  });
});
