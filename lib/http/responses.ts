import { JsonText } from "../schemas/json-text.ts";
import { stringifyJson } from "./json.ts";
import { type ApiError, problemBody } from "./problem.ts";

/** A JSON body as sent: its text, or its UTF-8 pieces in order (a JsonText given as pieces). */
export type SentJson = string | readonly Uint8Array[];

/** The JSON text of each jsonResponse, for its ETag (conditional.ts) without reading the body back. */
const jsonTexts = new WeakMap<Response, SentJson>();

/** The text (or pieces) a jsonResponse was built from; undefined for any other response. */
export function jsonTextOf(response: Response): SentJson | undefined {
  return jsonTexts.get(response);
}

/** The pieces as a stream, enqueued as they are: nothing is copied (they are only read on the way out). */
function streamOfParts(parts: readonly Uint8Array[]): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const part of parts) controller.enqueue(part);
      controller.close();
    },
  });
}

/**
 * `no-store` unless the API's conditional step (conditional.ts) makes it `private, no-cache` with an ETag:
 * an answer outside withApi (a token, a session) is never stored.
 */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const text: SentJson = body instanceof JsonText && body.parts ? body.parts : stringifyJson(body);
  const response = new Response(typeof text === "string" ? text : streamOfParts(text), {
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
