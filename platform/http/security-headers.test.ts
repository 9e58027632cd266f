import { describe, expect, it } from "vitest";
import { targetPath } from "./request-stamp.mjs";
import { API_CSP, DOCS_CSP, pageCsp, securityHeadersFor } from "./security-headers.mjs";

/** What the response to a request for `target` carries, as the request stamp puts it there. */
const headersFor = (target: string, { https = false, dev = false } = {}) =>
  new Map(
    securityHeadersFor(targetPath(target), { https, dev }).map(([name, value]) => [
      name.toLowerCase(),
      value,
    ]),
  );

const COMMON = [
  "x-content-type-options",
  "x-frame-options",
  "referrer-policy",
  "permissions-policy",
  "cross-origin-opener-policy",
  "cross-origin-resource-policy",
];

describe("security headers", () => {
  it.each([
    "/",
    "/players/P000007?tab=transactions",
    "/audit",
    "/sign-in",
    "/apix",
    "/ap",
    "/_next/static/chunks/a.js",
    "/favicon.ico",
    "*",
  ])("a page or asset (%s) gets the page policy and the common headers", (target) => {
    const h = headersFor(target);
    expect(h.get("content-security-policy")).toBe(pageCsp({ dev: false }));
    for (const name of COMMON) expect(h.get(name), name).toBeTruthy();
  });

  it.each([
    "/api",
    "/api/",
    "/api?x=1",
    "/api/health",
    "/api/v1/players/P000007",
    "/api/v1/players/P1/transactions?limit=5",
    "/api/v1/docs/",
    "/api/v1/docs/scalar.js?v=1",
    "/api/v1/openapi.json",
    "http://example.test/api/v1/players/P1",
  ])("the API (%s) gets the policy that allows nothing and the common headers", (target) => {
    const h = headersFor(target);
    expect(h.get("content-security-policy")).toBe(API_CSP);
    for (const name of COMMON) expect(h.get(name), name).toBeTruthy();
  });

  it("the API reference page gets its own policy, with or without a query", () => {
    expect(headersFor("/api/v1/docs").get("content-security-policy")).toBe(DOCS_CSP);
    expect(headersFor("/api/v1/docs?theme=dark").get("content-security-policy")).toBe(DOCS_CSP);
  });

  it("development pages may evaluate code and open the dev server's websocket; production pages may not", () => {
    expect(headersFor("/", { dev: true }).get("content-security-policy")).toContain("'unsafe-eval'");
    expect(headersFor("/").get("content-security-policy")).not.toContain("'unsafe-eval'");
    expect(headersFor("/api/health", { dev: true }).get("content-security-policy")).toBe(API_CSP);
  });

  it("HSTS only for requests that came over HTTPS", () => {
    expect(headersFor("/api/health").has("strict-transport-security")).toBe(false);
    expect(headersFor("/api/health", { https: true }).get("strict-transport-security")).toMatch(
      /^max-age=\d+/,
    );
    expect(headersFor("/", { https: true }).has("strict-transport-security")).toBe(true);
  });

  it("each header once: no list names a header twice", () => {
    for (const target of ["/", "/api/health", "/api/v1/docs"]) {
      for (const https of [false, true]) {
        const names = securityHeadersFor(targetPath(target), { https, dev: false }).map(([n]) =>
          n.toLowerCase(),
        );
        expect(new Set(names).size, target).toBe(names.length);
      }
    }
  });
});
