import { type ApiError, problemBody } from "@/platform/problems/problem";
import { JsonText } from "../schemas/json-text.ts";
import { stringifyJson } from "./json.ts";

/** Sent with a sign-out: the browser drops its HTTP cache and the origin's storage (not the cookies: Set-Cookie). */
export const CLEAR_SITE_DATA = '"cache", "storage"';

/** A JSON body as sent: its text, or its UTF-8 pieces in order (a JsonText given as pieces). */
export type SentJson = string | readonly Uint8Array[];

/** The JSON text of each jsonResponse, for its ETag (conditional.ts) without reading the body back. */
const jsonTexts = new WeakMap<Response, SentJson>();

/** The text (or pieces) a jsonResponse was built from; undefined for any other response. */
export function jsonTextOf(response: Response): SentJson | undefined {
  return jsonTexts.get(response);
}

/**
 * Below this many bytes a JSON answer is sent whole: one body, with its Content-Length (withApi puts it on the
 * Node.js response, as Next.js drops a route handler's). A server killed mid-answer then has sent all of it or
 * none (the request stamp sends a body written in one turn in one write), and a proxy in front knows an answer
 * it got whole from one it got cut. Above it, the pieces are streamed (no copy of a large body).
 */
export const WHOLE_BODY_LIMIT = 64 * 1024;

/** The byte length of each answer sent whole (JSON below WHOLE_BODY_LIMIT, problems). */
const wholeLengths = new WeakMap<Response, number>();

/** The Content-Length of an answer sent whole; undefined for a streamed or foreign one. */
export function wholeBodyLength(response: Response): number | undefined {
  return wholeLengths.get(response);
}

function byteLengthOf(text: SentJson): number {
  if (typeof text === "string") return Buffer.byteLength(text);
  let length = 0;
  for (const part of text) length += part.byteLength;
  return length;
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
 * `no-store`; the API's conditional step (conditional.ts) makes a read's `private, no-store` with an ETag.
 * Sent whole below WHOLE_BODY_LIMIT, else streamed.
 */
export function jsonResponse(
  body: unknown,
  init: { status?: number; headers?: Record<string, string> } = {},
): Response {
  const text: SentJson = body instanceof JsonText && body.parts ? body.parts : stringifyJson(body);
  const length = byteLengthOf(text);
  const whole = length < WHOLE_BODY_LIMIT;
  const sent = typeof text === "string" ? text : whole ? Buffer.concat(text) : streamOfParts(text);
  const response = new Response(sent, {
    status: init.status ?? 200,
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Cache-Control": "no-store",
      ...init.headers,
    },
  });
  jsonTexts.set(response, text);
  if (whole) wholeLengths.set(response, length);
  return response;
}

export function problemResponse(error: ApiError, requestId: string, instance?: string): Response {
  const text = JSON.stringify(problemBody(error, requestId, instance));
  const response = new Response(text, {
    status: error.status,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      "X-Request-ID": requestId,
      ...error.headers,
    },
  });
  wholeLengths.set(response, Buffer.byteLength(text));
  return response;
}
