import type { RequestUrl } from "./api-context.ts";

/*
 * `Link: <…>; rel="next"` (RFC 8288) on every paged answer. A paged read declares only which query parameters
 * change for its next page (`NextPage`); the URL is the request's own path and query with those changed, so the
 * next page keeps every filter and the limit, as the client wrote them. The reference is relative (path and query):
 * resolved against the request's URL, it needs no idea of the public origin.
 */

/** The parameters the next page changes (a value sets one, null drops it), or null on the last page. */
export type NextPage = Readonly<Record<string, string | null>> | null;

/** A query pair's name as the server reads it (`+` a space; a malformed escape kept as sent). */
function pairName(pair: string): string {
  const name = (pair.split("=", 1)[0] ?? "").replace(/\+/g, " ");
  try {
    return decodeURIComponent(name);
  } catch {
    return name;
  }
}

/**
 * The next page's URL: the request's path and query with `next`'s changes. The parameters it keeps are copied as
 * the client wrote them (its commas, its escapes: the raw query when the URL has one), the changed ones follow.
 */
export function nextPageUrl(url: RequestUrl, next: Readonly<Record<string, string | null>>): string {
  const search = (url as { search?: unknown }).search;
  const raw = typeof search === "string" ? search.replace(/^\?/, "") : url.searchParams.toString();
  const kept = raw.split("&").filter((pair) => pair !== "" && !Object.hasOwn(next, pairName(pair)));
  const changed = Object.entries(next).flatMap(([name, value]) =>
    value === null ? [] : [`${encodeURIComponent(name)}=${encodeURIComponent(value)}`],
  );
  const query = [...kept, ...changed].join("&");
  return query ? `${url.pathname}?${query}` : url.pathname;
}

/** The response headers of a paged answer: `Link` with `rel="next"`, none on the last page. */
export function nextLinkHeaders(url: RequestUrl, next: NextPage): Record<string, string> {
  return next ? { Link: `<${nextPageUrl(url, next)}>; rel="next"` } : {};
}

/** A keyset-paged body: the next page is `cursor=next_cursor` (an offset, if any, dropped). */
export function cursorNextPage(body: { has_more: boolean; next_cursor: string | null }): NextPage {
  return body.has_more && body.next_cursor ? { cursor: body.next_cursor, offset: null } : null;
}

/** An offset-paged body: the next page starts `limit` further. */
export function offsetNextPage(body: { has_more: boolean; offset: number; limit: number }): NextPage {
  return body.has_more ? { offset: String(body.offset + body.limit) } : null;
}
