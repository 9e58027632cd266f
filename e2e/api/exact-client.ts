import { isLosslessNumber, parse } from "lossless-json";
import createClient, { type Middleware } from "openapi-fetch";
import type { paths } from "./generated/player-api.ts";

/*
 * The typed-client recipe's second half (docs/integrations.md, Exact money): openapi-fetch over the generated
 * types, each body read as text (`parseAs: "text"`) and parsed with lossless-json, so the fields the document
 * marks `format: decimal` keep every digit as a string (their generated type), every other number a number.
 * JSON.parse cannot do it on Node 20: its reviver sees the double, not the source text.
 */

/**
 * Sets X-Session-ID on every request (docs/integrations.md, The session id). The document declares the header
 * optional so that the calls need not name it; the server still requires it (a 400 naming it otherwise).
 */
export function sessionIdMiddleware(sessionId: string): Middleware {
  return {
    onRequest({ request }) {
      request.headers.set("X-Session-ID", sessionId);
      return request;
    },
  };
}

/** The typed client: the bearer token as a default header, the session id by middleware. */
export function createExactClient(baseUrl: string, auth: { token: string; sessionId: string }) {
  const client = createClient<paths>({
    baseUrl: `${baseUrl}/api/v1`,
    headers: { Authorization: `Bearer ${auth.token}` },
  });
  client.use(sessionIdMiddleware(auth.sessionId));
  return client;
}

/** Parses a JSON body keeping `decimalFields` as digit strings; other numbers become JS numbers. */
export function parseExact<T>(text: string, decimalFields: ReadonlySet<string>): T {
  return parse(text, (key, value) => {
    if (!isLosslessNumber(value)) return value;
    return decimalFields.has(key) ? value.toString() : value.valueOf();
  }) as T;
}
