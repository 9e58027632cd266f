import { describe, expect, it } from "vitest";
import { notFound } from "@/platform/problems/problem";
import { withApi } from "./api-handler.ts";
import { deprecationHeaders } from "./deprecation.ts";
import { jsonResponse } from "./responses.ts";

const policy = { since: "2026-12-01", sunset: "2027-06-01", successor: "/players/{playerId}" };
const call = (handler: Parameters<typeof withApi>[0]) =>
  withApi(handler, { auth: false, deprecation: policy })(new Request("http://localhost/api/v1/old"), {
    params: Promise.resolve({}),
  });

describe("deprecation headers (RFC 9745, RFC 8594)", () => {
  it("writes the date as a structured-field date, the sunset as an HTTP-date, and the links", () => {
    expect(deprecationHeaders(policy)).toEqual({
      Deprecation: "@1796083200",
      Sunset: "Tue, 01 Jun 2027 00:00:00 GMT",
      Link: '</api/v1/players/{playerId}>; rel="successor-version", </api/v1/docs>; rel="deprecation"; type="text/html"',
    });
    expect(deprecationHeaders({ since: "2026-12-01T12:00:00Z" })).toEqual({
      Deprecation: "@1796126400",
      Link: '</api/v1/docs>; rel="deprecation"; type="text/html"',
    });
  });

  it("refuses a date that does not parse and a sunset before the deprecation", () => {
    expect(() => deprecationHeaders({ since: "soon" })).toThrow(/deprecation.since is not a date/);
    expect(() => deprecationHeaders({ since: "2026-12-01", sunset: "2026-01-01" })).toThrow(/after/);
  });

  it("is on every answer of an operation that opts in, problems included; on no other", async () => {
    const ok = await call(async () => jsonResponse({ ok: true }));
    expect(ok.status).toBe(200);
    expect(ok.headers.get("deprecation")).toBe("@1796083200");
    expect(ok.headers.get("sunset")).toBe("Tue, 01 Jun 2027 00:00:00 GMT");
    expect(ok.headers.get("link")).toContain('rel="successor-version"');
    const problem = await call(async () => {
      throw notFound("gone");
    });
    expect(problem.status).toBe(404);
    expect(problem.headers.get("deprecation")).toBe("@1796083200");
    const current = await withApi(async () => jsonResponse({ ok: true }), { auth: false })(
      new Request("http://localhost/api/v1/new"),
      { params: Promise.resolve({}) },
    );
    expect(current.headers.get("deprecation")).toBeNull();
    expect(current.headers.get("sunset")).toBeNull();
  });
});
