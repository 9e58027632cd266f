import { createHash } from "node:crypto";
import { jsonTextOf, type SentJson } from "./responses.ts";

/*
 * Conditional reads (RFC 9110 §13): every JSON read answered through withApi carries a weak ETag computed
 * from its body as sent, and `If-None-Match` with a matching tag answers 304 without a body. Weak (`W/"…"`),
 * because the tag names the representation's content, not its bytes on the wire: a compressing proxy or
 * Next.js's own compression may change those, and If-None-Match compares weakly anyway (§13.1.2).
 */

/**
 * Cache-Control of the reads that carry an ETag: player data, which no cache (not even the browser's) stores. A
 * client that keeps its own copy (a sync job) still revalidates it with the ETag.
 */
export const READ_CACHE_CONTROL = "private, no-store";

/** `W/"<43 base64url characters of SHA-256>"` of the JSON text (its UTF-8 bytes, whether given whole or in pieces). */
export function entityTag(text: SentJson): string {
  const hash = createHash("sha256");
  if (typeof text === "string") hash.update(text);
  else for (const part of text) hash.update(part);
  return `W/"${hash.digest("base64url")}"`;
}

/** The tags of an If-None-Match header (`*`, or a list of possibly weak tags); opaque tags keep their commas. */
export function parseIfNoneMatch(header: string): string[] | "*" {
  if (header.trim() === "*") return "*";
  return header.match(/(?:W\/)?"[^"]*"/g) ?? [];
}

/** Weak comparison (§8.8.3.2): two tags match when their opaque parts are equal, `W/` or not. */
export function ifNoneMatchHits(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const tags = parseIfNoneMatch(header);
  if (tags === "*") return true;
  const opaque = etag.replace(/^W\//, "");
  return tags.some((tag) => tag.replace(/^W\//, "") === opaque);
}

/**
 * Gives a JSON read's 200 its ETag and `Cache-Control: private, no-store`, and answers 304 (no body, the same
 * ETag) when the caller's copy is current. Other answers (problems, streams, non-GET) pass unchanged.
 */
export function conditionalRead(request: Request, response: Response): Response {
  if (response.status !== 200 || (request.method !== "GET" && request.method !== "HEAD")) return response;
  const text = jsonTextOf(response);
  if (text === undefined) return response;
  const etag = entityTag(text);
  if (ifNoneMatchHits(request.headers.get("if-none-match"), etag)) {
    void response.body?.cancel().catch(() => {});
    return new Response(null, { status: 304, headers: { ETag: etag, "Cache-Control": READ_CACHE_CONTROL } });
  }
  response.headers.set("ETag", etag);
  response.headers.set("Cache-Control", READ_CACHE_CONTROL);
  return response;
}
