import { randomUUID } from "node:crypto";

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * The server's own id for a request: in the access log, the audit row and the answer's X-Request-ID. A client's
 * X-Request-ID is recorded beside it (clientRequestIdFor), never taken as the id: a client could otherwise make
 * its reads look like another's.
 */
export function newRequestId(): string {
  // node:crypto's own: Next.js wraps the global crypto.randomUUID with a check for prerendering on every call.
  return randomUUID();
}

/** The X-Request-ID the client sent, when it is well-formed; else null. */
export function clientRequestIdFor(request: Request): string | null {
  const incoming = request.headers.get("x-request-id");
  return incoming && REQUEST_ID.test(incoming) ? incoming : null;
}
