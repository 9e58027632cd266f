/** Where signing in happens; shared by the proxy, next-auth's options and the browser. */
export const SIGN_IN_PATH = "/sign-in";

/**
 * `?reason=expired` on the sign-in page: the visitor had a session that is no longer live (past its expiry,
 * revoked, or its cookie no longer verifies); the page says so and signing in returns to `callbackUrl`.
 */
export const SIGN_IN_REASON_EXPIRED = "expired";

/** The sign-in address that returns to `back` (a path with its query) after signing in, saying why. */
export function signInPath(back: string | null, reason: string | null = null): string {
  const q = new URLSearchParams();
  if (back && back !== "/") q.set("callbackUrl", back);
  if (reason) q.set("reason", reason);
  const query = q.toString();
  return query ? `${SIGN_IN_PATH}?${query}` : SIGN_IN_PATH;
}

/** Stands for this site while a bare path is resolved; never sent anywhere. */
const PLACEHOLDER_ORIGIN = "http://this-site.invalid";

/**
 * Browsers drop tabs and line breaks from a URL (`/\t/evil.example` is `//evil.example`, another host), and a
 * Location header cannot carry CR or LF at all (Next.js answered 500); a backslash is a slash in http URLs.
 */
function hasUnsafeCharacter(value: string): boolean {
  for (let i = 0; i < value.length; i++) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f || code === 0x5c) return true;
  }
  return false;
}

/**
 * `value` as a path (with query and fragment) on the site at `origin`, when it is a path or an absolute URL on
 * that origin; null for anything else. Parsed as a browser would, so what it returns is what a browser follows.
 */
export function sitePath(value: string | null | undefined, origin = PLACEHOLDER_ORIGIN): string | null {
  if (!value || hasUnsafeCharacter(value)) return null;
  if (!value.startsWith("/") && !value.startsWith(`${origin}/`)) return null;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return null;
  }
  const path = `${url.pathname}${url.search}${url.hash}`;
  // Dot segments can leave two leading slashes (`/.//evil.example`): a browser reads that as another host.
  return url.origin === origin && !path.startsWith("//") ? path : null;
}

/** A callbackUrl is followed only when it is a path on this site, and never back to sign-in. */
export function safeCallbackPath(value: string | null | undefined): string {
  const path = sitePath(value);
  return path === null || path.startsWith(SIGN_IN_PATH) ? "/" : path;
}

/**
 * next-auth's redirect after sign-in or sign-out (its `redirect` callback): the client's callbackUrl when it is on
 * this site, else the site's root. next-auth's default threw (a 500) on a value that is not a URL.
 */
export function redirectOnSite({ url, baseUrl }: { url: string; baseUrl: string }): string {
  const { origin } = new URL(baseUrl);
  const path = sitePath(url, origin);
  return path === null ? baseUrl : `${origin}${path}`;
}
