import { randomUUID } from "node:crypto";
import { problemTypeEntry, problemTypeUri } from "../problems/problem-types.mjs";
import { parseTrustedProxies } from "./trusted-proxies.mjs";

/*
 * Admission before routing: requests Next.js must never see are answered from the raw IncomingMessage, before
 * any parser reads their body (request-stamp.mjs installs the gate on the server at its first request).
 *
 * - Bodies are bounded. next-auth reads every POST body whole (and the sign-in throttle read it once more): one
 *   80 MB form post ran the heap out and the server exited. A declared Content-Length over the bound is refused
 *   at once; a chunked body is held (at most the bound) until it ends, and refused as soon as it exceeds it.
 * - In demo mode (any bearer token reads every player) only this machine's own host names are answered: a web
 *   page that rebinds its name to 127.0.0.1 sends its own name as Host and gets 421.
 *
 * Plain JavaScript: the server preloads it (platform/runtime/server-preload.mjs).
 */

/** Sign-in's forms (next-auth) are ~200 bytes; other methods than GET/HEAD are answered 405 without reading. */
export const BODY_LIMIT = 16 * 1024;
/** `next dev` only: its error overlay posts stack frames to /__nextjs_* routes. */
export const DEV_TOOLS_BODY_LIMIT = 1024 * 1024;

/** The host names a demo server answers besides NEXTAUTH_URL's and LISTEN_HOST's (ports are not compared). */
export const LOOPBACK_HOST_NAMES = Object.freeze(["localhost", "127.0.0.1", "[::1]"]);
const ANY_ADDRESS = new Set(["0.0.0.0", "::", "[::]"]);

/**
 * @typedef {{ dev: boolean, trustedProxies: import("./trusted-proxies.mjs").TrustedProxies,
 *   demoHosts: ReadonlySet<string> | null }} ServerSettings
 * What the gate and the stamp need from the environment; `demoHosts` is null outside demo mode.
 */

/** @param {string | undefined} value */
function hostNameOf(value) {
  if (!value || ANY_ADDRESS.has(value)) return null;
  // A bare IPv6 address (LISTEN_HOST=::1) is bracketed in a Host header.
  if (value.includes(":") && !value.startsWith("[")) return `[${value.toLowerCase()}]`;
  return value.toLowerCase();
}

/**
 * @param {Record<string, string | undefined>} env
 * @returns {ServerSettings}
 */
export function readServerSettings(env) {
  // platform/env/env.ts's default: demo authentication without DATABASE_URL (the embedded quick start).
  const demo = (env.AUTH_MODE ?? (env.DATABASE_URL ? "" : "demo")) === "demo";
  let demoHosts = null;
  if (demo) {
    const names = new Set(LOOPBACK_HOST_NAMES);
    for (const name of [urlHostName(env.NEXTAUTH_URL), hostNameOf(env.LISTEN_HOST)])
      if (name) names.add(name);
    demoHosts = names;
  }
  // An entry of TRUSTED_PROXIES that does not parse (the server refuses to start on it anyway) trusts nobody.
  return {
    dev: env.NODE_ENV === "development",
    trustedProxies: parseTrustedProxies(env.TRUSTED_PROXIES),
    demoHosts,
  };
}

/** @param {string | undefined} url */
function urlHostName(url) {
  try {
    return url ? new URL(url).hostname.toLowerCase() : null;
  } catch {
    return null;
  }
}

/** @type {ServerSettings | undefined} */
let settings;

/**
 * Read on the first request: the preload runs before Next.js loads `.env` files and sets NODE_ENV, and
 * process.env is a slow lookup to repeat for every request.
 */
export function serverSettings() {
  settings ??= readServerSettings(process.env);
  return settings;
}

/** Tests change the environment between cases. */
export function resetServerSettings() {
  settings = undefined;
}

/** "Localhost:3000" → "localhost", "[::1]:80" → "[::1]"; "" when there is none. @param {string | undefined} host */
export function hostName(host) {
  if (!host) return "";
  const end = host.startsWith("[") ? host.indexOf("]") + 1 : host.indexOf(":");
  return (end <= 0 ? host : host.slice(0, end)).toLowerCase();
}

/**
 * The largest body a request may carry: none on a read (GET, HEAD), else BODY_LIMIT.
 * @param {string | undefined} method
 * @param {string | undefined} url
 * @param {boolean} dev
 */
export function bodyLimit(method, url, dev) {
  if (method === "GET" || method === "HEAD") return 0;
  return dev && url?.startsWith("/__nextjs") ? DEV_TOOLS_BODY_LIMIT : BODY_LIMIT;
}

/**
 * @typedef {{ type: string, title: string, status: number, detail: string,
 *   errors: { name: string, in: "header", detail: string }[] }} Refusal
 */

/** @param {number} limit @param {"Content-Length" | "Transfer-Encoding"} header @returns {Refusal} */
function contentTooLarge(limit, header) {
  const { slug, title, status } = problemTypeEntry("content-too-large");
  return {
    type: problemTypeUri(slug),
    title,
    status,
    detail:
      limit === 0
        ? "This request takes no body."
        : `The request body is larger than this resource accepts (${limit} bytes).`,
    errors: [
      {
        name: header,
        in: "header",
        detail: header === "Content-Length" ? `must not exceed ${limit}` : `the body exceeded ${limit} bytes`,
      },
    ],
  };
}

/** @returns {Refusal} */
function misdirected() {
  const { slug, title, status } = problemTypeEntry("misdirected-request");
  return {
    type: problemTypeUri(slug),
    title,
    status,
    detail:
      "This demo server answers only its own host names: localhost, 127.0.0.1, [::1], NEXTAUTH_URL's and LISTEN_HOST's.",
    errors: [{ name: "Host", in: "header", detail: "is not a host name of this server" }],
  };
}

/**
 * What can be refused from the request's head alone: a foreign Host in demo mode, a declared body over the bound.
 * @param {import("node:http").IncomingMessage} request
 * @returns {Refusal | null}
 */
export function refusalOf(request) {
  const { headers } = request;
  const { demoHosts, dev } = serverSettings();
  if (demoHosts !== null && !demoHosts.has(hostName(headers.host))) return misdirected();
  const length = headers["content-length"];
  if (length === undefined) return null;
  // Node's parser has already refused a Content-Length that is not one decimal number.
  const limit = bodyLimit(request.method, request.url, dev);
  return Number(length) > limit ? contentTooLarge(limit, "Content-Length") : null;
}

/** How long a refused connection stays half-open before it is closed under a client still sending. */
const LINGER_MS = 2_000;

/**
 * Replaces Node's close after a `Connection: close` answer (destroySoon: FIN, then gone at once). Closing a
 * socket with unread data sends a reset, and a client still sending its body could lose the answer to it before
 * reading it. Half-closed instead, the socket is destroyed when the client closes too, or after LINGER_MS; what
 * arrives meanwhile is discarded (a declared body) or left unread (a chunked one), never held.
 * @this {import("node:net").Socket}
 */
function lingeringClose() {
  this.end();
  const timer = setTimeout(() => this.destroy(), LINGER_MS);
  timer.unref();
  this.once("close", () => clearTimeout(timer));
}

/**
 * A problem+json answer that closes the connection. The security headers are already on the response: the stamp
 * put them there.
 * @param {import("node:http").ServerResponse} response
 * @param {Refusal} refusal
 */
function refuse(response, refusal) {
  const requestId = randomUUID();
  const { errors, ...problem } = refusal;
  const body = JSON.stringify({ ...problem, request_id: requestId, errors });
  response.writeHead(refusal.status, {
    "Content-Type": "application/problem+json",
    "Content-Length": Buffer.byteLength(body),
    "Cache-Control": "no-store",
    "X-Request-ID": requestId,
    Connection: "close",
  });
  if (response.socket) response.socket.destroySoon = lingeringClose;
  response.end(body);
}

/**
 * @typedef {(request: import("node:http").IncomingMessage, response: import("node:http").ServerResponse) => void} Listener
 */

/**
 * A chunked body has no declared length: it reaches Node's parser chunk by chunk, and each chunk is counted as
 * the parser hands it to the request stream. The request is routed only once the body ended within the bound;
 * until then the stream ignores backpressure (it holds at most the bound), so the parser keeps reading.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {Listener} route
 */
function holdChunkedBody(request, response, route) {
  const limit = bodyLimit(request.method, request.url, serverSettings().dev);
  const push = request.push;
  let received = 0;
  /** @param {Buffer | null} chunk @param {BufferEncoding} [encoding] */
  request.push = (chunk, encoding) => {
    if (chunk === null) {
      request.push = push;
      push.call(request, null);
      route(request, response);
      return false;
    }
    received += chunk.length;
    if (received > limit) {
      // Drop the rest; returning false stops the parser from reading the socket.
      request.push = () => false;
      refuse(response, contentTooLarge(limit, "Transfer-Encoding"));
      return false;
    }
    push.call(request, chunk, encoding);
    return true;
  };
}

/**
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:http").ServerResponse} response
 * @param {Listener} route
 */
function admit(request, response, route) {
  const refusal = refusalOf(request);
  if (refusal !== null) return refuse(response, refusal);
  if (request.headers["transfer-encoding"] === undefined) return route(request, response);
  holdChunkedBody(request, response, route);
}

const GATED = Symbol.for("par.requestGate");

/**
 * Puts the gate in front of the server's request listeners (Next.js's), once per server. Called for every request
 * (request-stamp.mjs), before Node emits it to them.
 * @param {import("node:http").Server & { [GATED]?: true }} server
 */
export function gateRequests(server) {
  if (server[GATED]) return;
  server[GATED] = true;
  const routed = /** @type {Listener[]} */ (server.listeners("request"));
  server.removeAllListeners("request");
  /** @type {Listener} */
  const route = (request, response) => {
    for (const listener of routed) listener.call(server, request, response);
  };
  server.on("request", (request, response) => admit(request, response, route));
  // `Expect: 100-continue` (curl's default for bodies over 1 MB): refuse before the client sends the body, where
  // Node would otherwise invite it with 100 Continue first.
  server.on("checkContinue", (request, response) => {
    const refusal = refusalOf(request);
    if (refusal !== null) return refuse(response, refusal);
    response.writeContinue();
    server.emit("request", request, response);
  });
}
