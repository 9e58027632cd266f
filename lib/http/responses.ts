import { stringifyJson } from "./json.ts";
import { type ApiError, problemBody } from "./problem.ts";

/** The JSON text of each jsonResponse, for its ETag (conditional.ts) without reading the body back. */
const jsonTexts = new WeakMap<Response, string>();

/** The text a jsonResponse was built from; undefined for any other response. */
export function jsonTextOf(response: Response): string | undefined {
  return jsonTexts.get(response);
}

/**
 * `no-store` unless the API's conditional step (conditional.ts) makes it `private, no-cache` with an ETag:
 * an answer outside withApi (a token, a session) is never stored.
 */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const text = stringifyJson(body);
  const response = new Response(text, {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...init.headers,
    },
  });
  jsonTexts.set(response, text);
  return response;
}

export function problemResponse(error: ApiError, requestId: string, instance?: string): Response {
  return new Response(JSON.stringify(problemBody(error, requestId, instance)), {
    status: error.status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      "X-Request-ID": requestId,
      ...error.headers,
    },
  });
}
