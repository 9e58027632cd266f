/*
 * Security headers for every response, put on it by the request stamp (request-stamp.mjs) before Next.js handles
 * the request (plain JavaScript because the server preloads it). Pages get a content security policy that allows
 * only this origin; API responses, which are never rendered, allow nothing; the API reference page runs Scalar's
 * bundle from this origin. HSTS is added only for requests that arrived over HTTPS (X-Forwarded-Proto from the TLS
 * terminator).
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
 * The API reference page runs Scalar's pinned bundle from this origin (features/api-docs/api-reference.ts): scripts from
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

/** @typedef {readonly (readonly [string, string])[]} HeaderList */

/** @param {{ key: string, value: string }[]} headers @returns {HeaderList} */
const list = (headers) => Object.freeze(headers.map(({ key, value }) => Object.freeze([key, value])));

/**
 * Each kind's lists, by (https ? 2 : 0) + (dev ? 1 : 0): a lookup that builds no key per request.
 * @type {Record<"page" | "api" | "docs", (HeaderList | undefined)[]>}
 */
const built = { page: [], api: [], docs: [] };

/**
 * The security headers of the response to a request for `pathname`, built once per kind: pages (and static
 * files) get the page policy; `/api` and everything under it the policy that allows nothing, except the API
 * reference page, which gets its own; HSTS is added when the request came over HTTPS.
 * @param {string} pathname the request's path, without its query
 * @param {{ https: boolean, dev: boolean }} options
 * @returns {HeaderList}
 */
export function securityHeadersFor(pathname, { https, dev }) {
  const kind =
    pathname === "/api/v1/docs"
      ? "docs"
      : pathname === "/api" || pathname.startsWith("/api/")
        ? "api"
        : "page";
  const slot = (https ? 2 : 0) + (dev ? 1 : 0);
  let headers = built[kind][slot];
  if (!headers) {
    const policy = kind === "docs" ? DOCS_CSP : kind === "api" ? API_CSP : pageCsp({ dev });
    headers = list([
      ...COMMON_SECURITY_HEADERS,
      { key: "Content-Security-Policy", value: policy },
      ...(https ? [HSTS_HEADER] : []),
    ]);
    built[kind][slot] = headers;
  }
  return headers;
}
