import type { RequestUrl } from "./api-context.ts";

/*
 * `Link: <…>; rel="next"` (RFC 8288) on every paged answer. A paged read declares only which query parameters
 * change for its next page (`NextPage`); the URL is the request's own path and query with those changed, so the
 * next page keeps every filter, the limit and the parameters' order. The reference is relative (path and query):
 * resolved against the request's URL, it needs no idea of the public origin.
 */

/** The parameters the next page changes (a value sets one, null drops it), or null on the last page. */
export type NextPage = Readonly<Record<string, string | null>> | null;

/** The next page's URL: the request's path and query with `next`'s changes. */
export function nextPageUrl(url: RequestUrl, next: Readonly<Record<string, string | null>>): string {
  const query = new URLSearchParams(url.searchParams);
  for (const [name, value] of Object.entries(next)) {
    if (value === null) query.delete(name);
    else query.set(name, value);
  }
  const text = query.toString();
  return text ? `${url.pathname}?${text}` : url.pathname;
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
