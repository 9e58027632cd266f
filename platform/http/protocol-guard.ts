import { randomUUID } from "node:crypto";
import dc from "node:diagnostics_channel";
import { type IncomingMessage, Server, type ServerResponse } from "node:http";
import type { Socket } from "node:net";
import { ApiError, invalidParameters, methodNotAllowed, problemBody } from "@/platform/problems/problem";
import { targetPath } from "./request-stamp.mjs";

/*
 * Requests that never reach a route handler still get problem+json 4xx answers:
 *
 * - A method Next.js does not route (TRACE, PROPFIND, …): Next builds a fetch Request for it, which refuses
 *   TRACE, so every path answered a bare 500; others got an empty 400. They are answered here with a 405.
 * - A method Node's parser does not know (`FOO`): Node wrote a bare 400 itself. Every error Node's parser
 *   reports before a request exists (also oversized headers, a request timeout) gets a problem body instead.
 * - An API query key Next.js loses on its way to the route (`__proto__`, see lostQueryKey): the route would
 *   serve the read without it, so it is answered here with the 400 any unknown parameter gets.
 *
 * Installed on the HTTP server when it accepts its first connection (Node's `net.server.socket` diagnostics
 * channel), before a byte of that connection is parsed.
 */

/** The methods Next.js routes (its HTTP_METHODS); route handlers answer 405 for those they do not serve. */
const ROUTED_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/** What the resources under `path` serve: sign-in (next-auth) takes form posts, everything else is read-only. */
export function allowedMethods(path: string): string[] {
  return path.startsWith("/api/auth/") ? ["GET", "HEAD", "POST"] : ["GET", "HEAD"];
}

/** Node's own answers to parser errors (see `socketOnError` in Node's _http_server.js), as problems. */
const CLIENT_ERRORS: Record<string, [number, string, string]> = {
  HPE_INVALID_METHOD: [405, "", ""],
  HPE_HEADER_OVERFLOW: [431, "Request Header Fields Too Large", "The request's headers are too large."],
  HPE_CHUNK_EXTENSIONS_OVERFLOW: [413, "Payload Too Large", "The request's chunk extensions are too large."],
  ERR_HTTP_REQUEST_TIMEOUT: [408, "Request Timeout", "The request did not arrive in time."],
};
const BAD_REQUEST: [number, string, string] = [
  400,
  "Bad Request",
  "The request is not well-formed HTTP/1.1.",
];

function problemHeaders(error: ApiError, requestId: string, length: number): Record<string, string> {
  return {
    "Content-Type": "application/problem+json",
    "Content-Length": String(length),
    "Cache-Control": "no-store",
    "X-Content-Type-Options": "nosniff",
    "X-Request-ID": requestId,
    ...error.headers,
  };
}

function unsupportedMethod(method: string | null, path: string): ApiError {
  return methodNotAllowed(method ?? "This request method", allowedMethods(path));
}

/**
 * A query key of `target` that Next.js drops before a route handler sees the request, or null. Next.js copies the
 * query into a plain object (its parseUrl), where `__proto__` sets the prototype instead of adding a key: the
 * route's URL then lacks it, whatever its value or spelling (`%5F%5Fproto%5F%5F`).
 */
export function lostQueryKey(target: string): string | null {
  const start = target.indexOf("?");
  if (start === -1) return null;
  const query = target.slice(start + 1);
  // Most queries can spell neither the name nor an escape of it: those are not parsed.
  if (!/proto|%/i.test(query)) return null;
  for (const key of new URLSearchParams(query).keys()) if (key === "__proto__") return key;
  return null;
}

function answerProblem(response: ServerResponse, error: ApiError, path: string): void {
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(error, requestId, path));
  response.writeHead(error.status, problemHeaders(error, requestId, Buffer.byteLength(body)));
  response.end(body);
}

/** Requests answered before Next.js routes them; null lets them through. */
function earlyProblem(request: IncomingMessage, path: string): ApiError | null {
  if (!ROUTED_METHODS.has(request.method ?? "")) return unsupportedMethod(request.method ?? null, path);
  const lost = path.startsWith("/api/") ? lostQueryKey(request.url ?? "") : null;
  return lost ? invalidParameters([{ name: lost, in: "query", detail: "is not a known parameter" }]) : null;
}

function answerClientError(error: Error & { code?: string }, socket: Socket): void {
  // Mirrors Node's default: answer only while nothing of a response was written, then close.
  const inFlight = (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (error.code === "ECONNRESET" || !socket.writable || inFlight?.headersSent) {
    socket.destroy();
    return;
  }
  const [status, title, detail] = CLIENT_ERRORS[error.code ?? ""] ?? BAD_REQUEST;
  const problem =
    status === 405
      ? unsupportedMethod(null, "/")
      : new ApiError({ status, type: "about:blank", title, detail });
  const requestId = randomUUID();
  const body = JSON.stringify(problemBody(problem, requestId));
  const headers = { ...problemHeaders(problem, requestId, Buffer.byteLength(body)), Connection: "close" };
  const head = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`);
  socket.end(`HTTP/1.1 ${status} ${problem.title}\r\n${head.join("")}\r\n${body}`, () => socket.destroy());
}

const guarded = new WeakSet<Server>();

function guard(server: Server): void {
  if (guarded.has(server)) return;
  guarded.add(server);
  server.on("clientError", answerClientError);
  const routed = server.listeners("request") as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners("request");
  server.on("request", (request: IncomingMessage, response: ServerResponse) => {
    // The same path the request stamp chose the security headers by: also for an absolute-form target.
    const path = targetPath(request.url ?? "/");
    const problem = earlyProblem(request, path);
    if (problem) return answerProblem(response, problem, path);
    for (const listener of routed) listener.call(server, request, response);
  });
}

const g = globalThis as unknown as { parProtocolGuardInstalled?: boolean };

/** Installed once per server process (server-hooks.ts), before requests are handled. */
export function installProtocolGuard(): void {
  if (g.parProtocolGuardInstalled) return;
  g.parProtocolGuardInstalled = true;
  dc.subscribe("net.server.socket", (message) => {
    const server = (message as { socket: Socket & { server?: unknown } }).socket.server;
    if (server instanceof Server) guard(server);
  });
}
