import { describe, expect, it } from "vitest";
import { AuditTrailError, auditTrailUrl, describeFilters, fetchAuditPage } from "./audit-client.ts";

const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json", ...headers } });

describe("audit trail client", () => {
  it("builds the operation's URL with paging and filters", () => {
    expect(auditTrailUrl("P 1/2")).toBe("/api/v1/players/P%201%2F2/audit");
    expect(auditTrailUrl("P1", { limit: 25, operations: ["profile", "search"], cursor: "42" })).toBe(
      "/api/v1/players/P1/audit?limit=25&operation=profile%2Csearch&cursor=42",
    );
  });

  it("returns the page through the fetch-like function it is given", async () => {
    const calls: string[] = [];
    const page = { events: [], total: 0, limit: 20, next_cursor: null, has_more: false };
    const result = await fetchAuditPage(async (url) => {
      calls.push(url);
      return json(200, page);
    }, "P1");
    expect(result).toEqual(page);
    expect(calls).toEqual(["/api/v1/players/P1/audit"]);
  });

  it("turns problem answers into errors with the request id", async () => {
    const denied = fetchAuditPage(async () => json(403, { detail: "scope", request_id: "req-1" }), "P1");
    await expect(denied).rejects.toBeInstanceOf(AuditTrailError);
    await expect(denied).rejects.toMatchObject({ status: 403, requestId: "req-1", message: /Only admins/ });
    await expect(
      fetchAuditPage(
        async () => new Response("oops", { status: 503, headers: { "x-request-id": "r2" } }),
        "P1",
      ),
    ).rejects.toMatchObject({ status: 503, requestId: "r2" });
  });

  it("describes a request's parameters compactly", () => {
    expect(describeFilters({ event_type: ["bet", "win"], limit: "5" })).toBe("event_type=bet,win · limit=5");
    expect(describeFilters({})).toBe("—");
  });
});
