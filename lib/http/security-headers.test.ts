import { modifyRouteRegex } from "next/dist/lib/redirect-status.js";
import { getPathMatch } from "next/dist/shared/lib/router/utils/path-match.js";
import { describe, expect, it } from "vitest";
import { API_CSP, DOCS_CSP, pageCsp, securityHeaderRules } from "./security-headers.mjs";

/**
 * The header values Next.js applies for `path`, in order: every matching rule's, each source matched as Next.js
 * matches it (server/lib/router-utils/filesystem.js `buildCustomRoute`). Later ones override earlier ones.
 */
function appliedFor(path: string, requestHeaders: Record<string, string> = {}): [string, string][] {
  const applied: [string, string][] = [];
  for (const rule of securityHeaderRules({ dev: false })) {
    const match = getPathMatch(rule.source, {
      strict: true,
      removeUnnamedParams: true,
      regexModifier: (regex) => modifyRouteRegex(regex),
    });
    if (!match(path)) continue;
    const has = rule.has ?? [];
    if (!has.every((h) => requestHeaders[h.key] === h.value)) continue;
    for (const { key, value } of rule.headers) applied.push([key.toLowerCase(), value]);
  }
  return applied;
}

/** What the response carries. */
const headersFor = (path: string, requestHeaders: Record<string, string> = {}) =>
  new Map(appliedFor(path, requestHeaders));

const COMMON = ["x-content-type-options", "x-frame-options", "referrer-policy", "permissions-policy"];

describe("security header rules", () => {
  it.each(["/", "/players/P000007", "/audit", "/sign-in", "/apix", "/_next/static/chunks/a.js"])(
    "a page or asset (%s) gets the page policy and the common headers",
    (path) => {
      const h = headersFor(path);
      expect(h.get("content-security-policy")).toBe(pageCsp({ dev: false }));
      for (const name of COMMON) expect(h.get(name), name).toBeTruthy();
    },
  );

  it.each(["/api", "/api/", "/api/health", "/api/v1/players/P000007", "/api/v1/players/P1/transactions"])(
    "the API (%s) gets the policy that allows nothing and the common headers",
    (path) => {
      const h = headersFor(path);
      expect(h.get("content-security-policy")).toBe(API_CSP);
      for (const name of COMMON) expect(h.get(name), name).toBeTruthy();
    },
  );

  it("the API reference page gets its own policy", () => {
    expect(headersFor("/api/v1/docs").get("content-security-policy")).toBe(DOCS_CSP);
  });

  it("HSTS only for requests that came over HTTPS", () => {
    expect(headersFor("/api/health").has("strict-transport-security")).toBe(false);
    expect(headersFor("/api/health", { "x-forwarded-proto": "https" }).has("strict-transport-security")).toBe(
      true,
    );
    expect(headersFor("/", { "x-forwarded-proto": "https" }).has("strict-transport-security")).toBe(true);
  });

  it("no header value applied to API reads contains a colon (Next.js would compile it per request)", () => {
    for (const path of ["/api/v1/players/P000007", "/api/v1/players/P1/transactions"]) {
      for (const [name, value] of appliedFor(path, { "x-forwarded-proto": "https" })) {
        expect(value, name).not.toContain(":");
      }
    }
  });

  it("no rule has a named parameter (Next would split a `:path*` into segments on every request)", () => {
    for (const rule of securityHeaderRules({ dev: false })) expect(rule.source).not.toMatch(/:[A-Za-z_]/);
  });
});
