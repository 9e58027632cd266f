import dc from "node:diagnostics_channel";
import type { Socket } from "node:net";

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
 *   whose reader stopped reading can only be ended by closing the socket, as Next.js waits for the reader.
 */

export const PEER_ADDRESS_HEADER = "x-par-peer-address";
export const MALFORMED_PATH_HEADER = "x-par-malformed-path";
export const CONNECTION_HEADER = "x-par-connection";

const g = globalThis as unknown as {
  parRequestStampInstalled?: boolean;
  parConnections?: { open: Map<string, Socket>; ids: WeakMap<Socket, string>; next: number };
};

function connections() {
  g.parConnections ??= { open: new Map(), ids: new WeakMap(), next: 0 };
  return g.parConnections;
}

/** A per-process id for the socket, remembered while it is open. */
function connectionId(socket: Socket): string {
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

/** Closes the connection the request with these headers arrived on; false when it is not known (not stamped). */
export function closeConnection(headers: Headers): boolean {
  const id = headers.get(CONNECTION_HEADER);
  const socket = id ? connections().open.get(id) : undefined;
  socket?.destroy();
  return socket !== undefined;
}

export function isRequestStampInstalled(): boolean {
  return g.parRequestStampInstalled === true;
}

function decodes(segment: string): boolean {
  try {
    decodeURIComponent(segment);
    return true;
  } catch {
    return false;
  }
}

/** Escapes `%` in every path segment that is not valid percent-encoded UTF-8; null when nothing was wrong. */
export function repairPercentEncoding(url: string): string | null {
  const queryAt = url.search(/[?#]/);
  const path = queryAt === -1 ? url : url.slice(0, queryAt);
  const segments = path.split("/");
  if (segments.every(decodes)) return null;
  const repaired = segments.map((s) => (decodes(s) ? s : s.replace(/%/g, "%25"))).join("/");
  return repaired + (queryAt === -1 ? "" : url.slice(queryAt));
}

/** Installed once per server process (instrumentation.ts), before requests are handled. */
export function installRequestStamp(): void {
  if (g.parRequestStampInstalled) return;
  g.parRequestStampInstalled = true;
  dc.subscribe("http.server.request.start", (message) => {
    const { request, socket } = message as {
      request: { url?: string; headers: Record<string, unknown> };
      socket: Socket;
    };
    request.headers[PEER_ADDRESS_HEADER] = socket.remoteAddress ?? "";
    request.headers[CONNECTION_HEADER] = connectionId(socket);
    delete request.headers[MALFORMED_PATH_HEADER];
    // Without a `%` nothing can be malformed: most requests skip decoding their path segments.
    const repaired = request.url?.includes("%") ? repairPercentEncoding(request.url) : null;
    if (repaired !== null) {
      request.url = repaired;
      request.headers[MALFORMED_PATH_HEADER] = "1";
    }
  });
}
