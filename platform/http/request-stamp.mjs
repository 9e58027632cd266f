import dc from "node:diagnostics_channel";
import { gateRequests, serverSettings } from "./request-gate.mjs";
import { securityHeadersFor } from "./security-headers.mjs";

/*
 * Runs for every HTTP request the server process receives, before Next.js sees it (Node's
 * `http.server.request.start` diagnostics channel), and adds facts route handlers cannot learn otherwise:
 *
 * - the TCP peer address, in a header of our own that overwrites anything a client sent (Next.js passes a
 *   client-written X-Forwarded-For through unchanged, so that header alone cannot be trusted);
 * - whether the path was malformed percent-encoding (`/players/%ZZ`, `/players/%C0%AF`). Next.js fails to
 *   decode such a path and answers a bare 500 before any route runs; instead each stray `%` is escaped
 *   (so the path routes normally) and the request is flagged, and the API answers 400;
 * - which connection it arrived on, so that a handler can close it (closeConnection): a streamed response
 *   whose reader stopped reading can only be ended by closing the socket, as Next.js waits for the reader;
 * - no X-Forwarded-Host unless the connection comes from a proxy TRUSTED_PROXIES names: next-auth (AUTH_TRUST_HOST,
 *   set by the launcher without NEXTAUTH_URL) builds its URLs from it, and Next.js fills it from Host when it is
 *   absent. The same setting governs X-Forwarded-For (client-address.ts).
 *
 * Before Next.js sees the request, the gate (request-gate.mjs) refuses oversized bodies and, in demo mode,
 * foreign host names.
 *
 * It also puts the security headers on the response (security-headers.mjs), so that every answer carries them:
 * pages, route handlers, Next's own 404/405/500 and static files alike. Headers already on the response win
 * over a route handler's (Next's send-response), as the `next.config` rules that did this before did.
 *
 * Plain JavaScript: scripts/serve.mjs loads it into the server process with `--import` (server-preload.mjs)
 * before Next.js opens its port; otherwise the requests that arrive before instrumentation.ts runs (Next.js
 * prepares on its first request) would pass unstamped. State lives on globalThis: the bundled copy in the
 * server's chunks and the preloaded one share it.
 */

export const PEER_ADDRESS_HEADER = "x-par-peer-address";
export const MALFORMED_PATH_HEADER = "x-par-malformed-path";
export const CONNECTION_HEADER = "x-par-connection";
export const RESPONSE_HEADER = "x-par-response";

/**
 * @typedef {{ open: Map<string, import("node:net").Socket>, ids: WeakMap<import("node:net").Socket, string>, next: number }} Connections
 * @type {{ parRequestStamp?: { preloaded: boolean }, parConnections?: Connections }}
 */
const g = /** @type {any} */ (globalThis);

/** @returns {Connections} */
function connections() {
  g.parConnections ??= { open: new Map(), ids: new WeakMap(), next: 0 };
  return g.parConnections;
}

/**
 * A per-process id for the socket, remembered while it is open.
 * @param {import("node:net").Socket} socket
 */
function connectionId(socket) {
  const c = connections();
  let id = c.ids.get(socket);
  if (id === undefined) {
    c.next += 1;
    const assigned = String(c.next);
    id = assigned;
    c.ids.set(socket, assigned);
    c.open.set(assigned, socket);
    socket.once("close", () => c.open.delete(assigned));
  }
  return id;
}

/**
 * Closes the connection the request with these headers arrived on; false when it is not known (not stamped).
 * @param {Headers} headers
 */
export function closeConnection(headers) {
  const id = headers.get(CONNECTION_HEADER);
  const socket = id ? connections().open.get(id) : undefined;
  socket?.destroy();
  return socket !== undefined;
}

/** @returns {{ open: Map<string, import("node:http").ServerResponse>, next: number }} */
function responses() {
  g.parResponses ??= { open: new Map(), next: 0 };
  return g.parResponses;
}

/**
 * Sets a header on the Node.js response of the request with these headers, before Next.js writes it; false when
 * the request was not stamped or its headers are sent. For what Next.js drops from a route handler's Response:
 * `Content-Encoding` (send-response.js assumes a fetched body that was decoded), which a handler that compresses
 * its own body must send.
 * @param {Headers} headers
 * @param {string} name
 * @param {string} value
 */
export function setResponseHeader(headers, name, value) {
  const id = headers.get(RESPONSE_HEADER);
  const response = id ? responses().open.get(id) : undefined;
  if (!response || response.headersSent) return false;
  response.setHeader(name, value);
  return true;
}

export function isRequestStampInstalled() {
  return g.parRequestStamp !== undefined;
}

/** Whether the stamp was in place before the server accepted connections (scripts/serve.mjs). */
export function isRequestStampPreloaded() {
  return g.parRequestStamp?.preloaded === true;
}

/** @param {string} segment */
function decodes(segment) {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/**
 * Escapes `%` in every path segment that is not valid percent-encoded UTF-8; null when nothing was wrong.
 * @param {string} url
 * @returns {string | null}
 */
export function repairPercentEncoding(url) {
  const queryAt = url.search(/[?#]/);
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const segments = path.split("/");
  if (segments.every(decodes)) return null;
  const repaired = segments.map((s) => (decodes(s) ? s : s.replace(/%/g, "%25"))).join("/");
  return repaired + (queryAt === -1 ? "" : url.slice(queryAt));
}

/**
 * The path of a request target: origin-form (`/a?b`) or, as a forward proxy may send it, absolute-form.
 * @param {string} target
 */
export function targetPath(target) {
  if (target.startsWith("/")) {
    const end = target.search(/[?#]/);
    return end === -1 ? target : target.slice(0, end);
  }
  try {
    return new URL(target).pathname;
  } catch {
    return target;
  }
}

/**
 * @typedef {{ url?: string, headers: Record<string, unknown> }} StampedRequest
 * @typedef {{ setHeader(name: string, value: string): unknown, once(event: "close", listener: () => void): unknown }} StampedResponse
 */

/**
 * The socket's peer as the trusted-proxy list compares it: an IPv4-mapped IPv6 address as its IPv4 address.
 * @param {string | undefined} address
 */
function normalizedPeer(address) {
  if (!address) return null;
  const lower = address.toLowerCase();
  return lower.startsWith("::ffff:") && lower.includes(".") ? lower.slice(7) : lower;
}

/**
 * Stamps one request and puts the security headers on its response.
 * @param {StampedRequest} request
 * @param {StampedResponse} response
 * @param {import("node:net").Socket} socket
 */
function stampRequest(request, response, socket) {
  const settings = serverSettings();
  request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
  request.headers[CONNECTION_HEADER] = connectionId(socket);
  const r = responses();
  r.next += 1;
  const responseId = String(r.next);
  r.open.set(responseId, /** @type {any} */ (response));
  response.once("close", () => r.open.delete(responseId));
  request.headers[RESPONSE_HEADER] = responseId;
  delete request.headers[MALFORMED_PATH_HEADER];
  if (
    request.headers["x-forwarded-host"] !== undefined &&
    !settings.trustedProxies.trusts(normalizedPeer(socket.remoteAddress))
  ) {
    delete request.headers["x-forwarded-host"];
  }
  // Without a `%` nothing can be malformed: most requests skip decoding their path segments.
  const repaired = request.url?.includes("%") ? repairPercentEncoding(request.url) : null;
  if (repaired !== null) {
    request.url = repaired;
    request.headers[MALFORMED_PATH_HEADER] = "1";
  }
  const headers = securityHeadersFor(targetPath(request.url ?? "/"), {
    https: request.headers["x-forwarded-proto"] === "https",
    dev: settings.dev,
  });
  for (const [name, value] of headers) response.setHeader(name, value);
  sendWholeWhenReady(response);
}

/**
 * Holds what a response writes until the end of the event loop's turn (cork, uncork on setImmediate). Next.js
 * sends a body chunked: its headers in one write, the body and its end in others. An instance killed between those
 * writes had sent a 200 that never ended, which HAProxy cannot send again elsewhere and must cut: the client got
 * ECONNRESET (the SIGKILL test through HAProxy, once in ~5 runs). Corked, a body written and ended in the same
 * turn leaves in one write (end() uncorks fully), so a killed instance has sent all of an answer or none of it,
 * and HAProxy sends a read that got none elsewhere. A stream (an export, live updates) still leaves turn by turn;
 * backpressure still holds.
 */
function sendWholeWhenReady(response) {
  let corked = false;
  const corkForThisTurn = () => {
    if (corked) return;
    corked = true;
    response.cork();
    setImmediate(() => {
      corked = false;
      response.uncork();
    });
  };
  // Next.js flushes the headers on their own first, then writes the body.
  for (const name of ["flushHeaders", "write"]) {
    const original = response[name];
    response[name] = function corked(...args) {
      corkForThisTurn();
      return original.apply(this, args);
    };
  }
}

/**
 * Installed once per server process: by server-preload.mjs before Next.js starts, else by instrumentation.ts.
 * @param {{ preloaded?: boolean }} [options]
 */
export function installRequestStamp({ preloaded = false } = {}) {
  if (g.parRequestStamp) return;
  g.parRequestStamp = { preloaded };
  dc.subscribe("http.server.request.start", (message) => {
    const { request, response, socket, server } = /** @type {any} */ (message);
    stampRequest(request, response, socket);
    gateRequests(server);
  });
}
