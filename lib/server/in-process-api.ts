import { issueAccessToken } from "@/lib/auth/access-token";
import type { Role } from "@/lib/auth/roles";
import { parseJsonWithDecimals } from "@/lib/client/lossless-json";
import { DECIMAL_KEYS } from "@/lib/client/wire";
import type { RouteContext } from "@/lib/http/api-context";
import { PEER_ADDRESS_HEADER } from "@/lib/http/request-stamp.mjs";

/** A GET route handler of /api/v1 as its route module exports it (`withApi(…)`). */
export type ApiRouteHandler<P> = (request: Request, route: RouteContext<P>) => Promise<Response>;

/** The signed-in user a page is rendered for, from the next-auth session. */
export interface PageUser {
  id: string;
  name?: string | null;
  role: Role | null;
  /** The sign-in session (`sid`): the X-Session-ID the browser would send. */
  sessionId: string;
}

/** One read for a server render: which route, its path parameters, and the URL the browser would ask for. */
export interface InProcessRead<P> {
  handler: ApiRouteHandler<P>;
  params: P;
  /** `/api/v1/…` with the query string, exactly as the browser's client would build it. */
  path: string;
}

export type InProcessAnswer<T> = { ok: true; data: T } | { ok: false; status: number };

/** The headers of the page's request that say who the client is (for the audit trail and the rate limit). */
const CLIENT_HEADERS = ["x-forwarded-for", PEER_ADDRESS_HEADER] as const;

/**
 * Serves reads for a server-rendered page through the API's own route handlers, in the same process and
 * under the signed-in user's own credentials: the access token the browser would get from
 * /api/session/token, its session id and a fresh request id per read. So the page's first view passes the
 * very same steps as the browser's later requests (authentication, rate limit, scope, data function, masking
 * of contact data without players:pii, the audit record with the same operation, filters and request id) and
 * comes back in the same wire shape (exact decimals as digit strings, as `apiGet` parses them).
 */
export async function apiAsUser(user: PageUser, pageHeaders: Headers) {
  // Minted from the page's sign-in session, like the browser's: its subject and role are the session's.
  const { token } = await issueAccessToken({ sessionId: user.sessionId, name: user.name });
  return async function read<T, P>(spec: InProcessRead<P>): Promise<InProcessAnswer<T>> {
    const headers = new Headers({
      Accept: "application/json",
      Authorization: `Bearer ${token}`,
      "X-Session-ID": user.sessionId,
      "X-Request-ID": crypto.randomUUID(),
    });
    for (const name of CLIENT_HEADERS) {
      const value = pageHeaders.get(name);
      if (value !== null) headers.set(name, value);
    }
    const request = new Request(new URL(spec.path, "http://in-process.invalid"), { headers });
    const response = await spec.handler(request, { params: Promise.resolve(spec.params) });
    if (!response.ok) {
      await response.body?.cancel();
      return { ok: false, status: response.status };
    }
    return { ok: true, data: parseJsonWithDecimals(await response.text(), DECIMAL_KEYS) as T };
  };
}
