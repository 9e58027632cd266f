/*
 * Security headers for every response, applied by next.config.mjs `headers()` (plain JavaScript because
 * the config file imports it). Pages get a content security policy that allows only this origin; API
 * responses, which are never rendered, allow nothing; the API reference page runs Scalar's bundle from this origin.
 * HSTS is added only for requests that arrived over HTTPS (X-Forwarded-Proto from the TLS terminator).
 */

/** @param {Record<string, string[]>} directives */
const csp = (directives) =>
  Object.entries(directives)
    .map(([name, values]) => [name, ...values].join(" "))
    .join("; ");

/** @param {{ dev: boolean }} options */
export function pageCsp({ dev }) {
  return csp({
    "default-src": ["'self'"],
    // Next.js bootstraps with inline scripts; dev mode also evaluates code and opens a websocket.
    "script-src": ["'self'", "'unsafe-inline'", ...(dev ? ["'unsafe-eval'"] : [])],
    "style-src": ["'self'", "'unsafe-inline'"],
    "img-src": ["'self'", "data:", "blob:"],
    "font-src": ["'self'", "data:"],
    "connect-src": ["'self'", ...(dev ? ["ws:"] : [])],
    "object-src": ["'none'"],
    "base-uri": ["'self'"],
    "form-action": ["'self'"],
    "frame-ancestors": ["'none'"],
  });
}

export const API_CSP = csp({ "default-src": ["'none'"], "frame-ancestors": ["'none'"], sandbox: [] });

/*
 * The API reference page runs Scalar's pinned bundle from this origin (lib/openapi/api-reference.ts): scripts from
 * 'self' only, no inline script, no eval. Scalar inserts <style> elements at run time, hence 'unsafe-inline' for
 * styles only. No other origin anywhere.
 */
export const DOCS_CSP = csp({
  "default-src": ["'self'"],
  "script-src": ["'self'"],
  "style-src": ["'self'", "'unsafe-inline'"],
  "img-src": ["'self'", "data:", "blob:"],
  "font-src": ["'self'", "data:"],
  "connect-src": ["'self'"],
  "object-src": ["'none'"],
  "base-uri": ["'self'"],
  "form-action": ["'self'"],
  "frame-ancestors": ["'none'"],
});

/** Sent with everything. */
export const COMMON_SECURITY_HEADERS = [
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "X-Frame-Options", value: "DENY" },
  { key: "Referrer-Policy", value: "no-referrer" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=(), payment=(), usb=()" },
  { key: "Cross-Origin-Opener-Policy", value: "same-origin" },
  { key: "Cross-Origin-Resource-Policy", value: "same-origin" },
];

export const HSTS_HEADER = { key: "Strict-Transport-Security", value: "max-age=31536000; includeSubDomains" };

/*
 * Sources in Next's path-to-regexp syntax. Next matches every rule against every request and extracts its
 * parameters: a repeated one (`/:path*`) is split into segments on each request, an unnamed group is one
 * string. None of these rules uses its parameters, so they use unnamed groups.
 */
/** Every path except /api and what lies under it. */
export const PAGES_SOURCE = "/((?!api(?:/|$)).*)";
/** /api and what lies under it (not /apix). */
export const API_SOURCE = "/api(/.*)?";
/** Every path. */
export const ALL_SOURCE = "/(.*)";

/**
 * The `headers()` rules for next.config. Later rules override earlier ones for the same header, so the
 * docs policy replaces the API policy on its path.
 *
 * Pages and the API get their policies from disjoint rules on purpose: Next.js compiles every header value that
 * contains a `:` as a path template on each request it applies to (prepare-destination's compileNonPath), and the
 * page policy has `data:` and `blob:`. Applied to the API and then overridden, it cost each API read ~30 µs of CPU
 * (about 3% of a profile read, docs/performance.md). No value sent on API responses contains a `:`.
 * @param {{ dev: boolean }} options
 */
export function securityHeaderRules({ dev }) {
  return [
    {
      source: PAGES_SOURCE,
      headers: [...COMMON_SECURITY_HEADERS, { key: "Content-Security-Policy", value: pageCsp({ dev }) }],
    },
    {
      source: API_SOURCE,
      headers: [...COMMON_SECURITY_HEADERS, { key: "Content-Security-Policy", value: API_CSP }],
    },
    { source: "/api/v1/docs", headers: [{ key: "Content-Security-Policy", value: DOCS_CSP }] },
    {
      source: ALL_SOURCE,
      has: [{ type: "header", key: "x-forwarded-proto", value: "https" }],
      headers: [HSTS_HEADER],
    },
  ];
}
