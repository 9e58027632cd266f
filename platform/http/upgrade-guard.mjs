import { randomUUID } from "node:crypto";
import http from "node:http";
import https from "node:https";
import { problemTypeEntry, problemTypeUri } from "../problems/problem-types.mjs";
import { serverSettings } from "./request-gate.mjs";
import { targetPath } from "./request-stamp.mjs";
import { securityHeadersFor } from "./security-headers.mjs";

/*
 * Upgrade requests (`Connection: Upgrade`, `Upgrade: websocket`, `h2c`, …) never reach the request stamp or the
 * gate: Node emits them as the server's `upgrade` event, with the raw socket, and no `request`. Next.js's upgrade
 * listener closes the socket only for paths it routes (`/api/…`) and leaves every other one (`/`, pages, unknown
 * paths) open, unanswered, for a WebSocket server the app might add: each such request held a socket and a file
 * descriptor until the server ran out of them. The app serves no WebSocket, so every Upgrade request is answered
 * 400 (problem+json naming the `Upgrade` header) and its socket closed, before Next.js sees it. `next dev` keeps
 * its hot reloading (Next.js's own WebSocket at /_next/hmr), in development only.
 *
 * Plain JavaScript: the server preloads it with the request stamp (platform/runtime/server-preload.mjs).
 */

/** Next.js's development server's WebSocket (hot reloading): the one upgrade `next dev` may take. */
export const DEV_HMR_PATH = "/_next/hmr";

/** How long a refused socket stays half-closed, for the client to read the answer and close first. */
const LINGER_MS = 2_000;

/**
 * Whether an upgrade of this request target is passed to Next.js: the hot reloading socket in development only.
 * @param {string | undefined} url
 * @param {boolean} dev
 */
export function upgradeAllowed(url, dev) {
  return dev && targetPath(url ?? "/") === DEV_HMR_PATH;
}

/**
 * The raw HTTP/1.1 answer to a refused upgrade: a 400 problem that closes the connection, with the security
 * headers every answer carries.
 * @param {string | undefined} url
 * @param {{ https: boolean, dev: boolean }} context
 */
export function upgradeRefusal(url, context) {
  const { slug, title, status } = problemTypeEntry("invalid-parameters");
  const requestId = randomUUID();
  const body = JSON.stringify({
    type: problemTypeUri(slug),
    title,
    status,
    detail: "This server speaks HTTP/1.1 only: it serves no WebSocket and switches to no other protocol.",
    request_id: requestId,
    errors: [{ name: "Upgrade", in: "header", detail: "is not supported; send the request without it" }],
  });
  const headers = [
    ["Content-Type", "application/problem+json"],
    ["Content-Length", String(Buffer.byteLength(body))],
    ["Cache-Control", "no-store"],
    ["X-Request-ID", requestId],
    ["Connection", "close"],
    ...securityHeadersFor(targetPath(url ?? "/"), context),
  ];
  const head = [`HTTP/1.1 ${status} Bad Request`, ...headers.map(([name, value]) => `${name}: ${value}`)];
  return `${head.join("\r\n")}\r\n\r\n${body}`;
}

/**
 * Answers and closes: FIN after the answer, then the socket is destroyed when the client closes too, or after
 * LINGER_MS (a client that never closes holds nothing). Errors (a client that reset) only end it sooner.
 * @param {import("node:http").IncomingMessage} request
 * @param {import("node:stream").Duplex} socket
 */
function refuseUpgrade(request, socket) {
  socket.on("error", () => socket.destroy());
  const timer = setTimeout(() => socket.destroy(), LINGER_MS);
  timer.unref();
  socket.once("close", () => clearTimeout(timer));
  // What the client sends after its head (a WebSocket frame) is read and dropped, so that its FIN is seen.
  socket.on("data", () => {});
  socket.once("end", () => socket.destroy());
  const context = { https: request.headers["x-forwarded-proto"] === "https", dev: serverSettings().dev };
  socket.end(upgradeRefusal(request.url, context));
}

const GUARDED = Symbol.for("par.upgradeGuard");

/**
 * Puts the guard in front of every `upgrade` listener of every HTTP(S) server of this process (Next.js's are
 * created later, by `next start` / `next dev`): Server.prototype.emit answers a refused upgrade itself, so
 * Next.js's listener never sees it. Idempotent.
 */
export function installUpgradeGuard() {
  for (const Server of [http.Server, https.Server]) {
    const proto = /** @type {any} */ (Server.prototype);
    if (proto[GUARDED]) continue;
    proto[GUARDED] = true;
    const emit = proto.emit;
    /** @this {import("node:http").Server} @param {string | symbol} event @param {...any} args */
    proto.emit = function guardedEmit(event, ...args) {
      if (event === "upgrade") {
        const [request, socket] = args;
        if (!upgradeAllowed(request.url, serverSettings().dev)) {
          refuseUpgrade(request, socket);
          return true;
        }
      }
      return emit.call(this, event, ...args);
    };
  }
}
