import { appOrigin, endSignInSession, refuseCrossSite } from "@/platform/auth/end-session";
import { expiredSessionCookies, sessionCookieToken } from "@/platform/auth/session-cookie";
import { methodNotAllowedHandler, withApi } from "@/platform/http/api-handler";
import { CLEAR_SITE_DATA, jsonResponse } from "@/platform/http/responses";

export const dynamic = "force-dynamic";

/**
 * Sign-out, asked by the pages' sign-out button: ends the server-side session the cookie names, drops the cookie
 * and answers `{ url }`, where the browser goes next (the provider's end-session endpoint, or the sign-in page).
 * The URL is built here and carries no ID token. `Clear-Site-Data` has the browser drop its cache and the
 * origin's storage (the cookie is expired by Set-Cookie).
 */
const signOut = withApi(
  async ({ request }) => {
    refuseCrossSite(request);
    const url = await endSignInSession(await sessionCookieToken(request), appOrigin(request));
    const response = jsonResponse({ url });
    for (const cookie of expiredSessionCookies(request)) response.headers.append("Set-Cookie", cookie);
    // The browser drops what it kept of the session: its HTTP cache and the origin's storage.
    response.headers.set("Clear-Site-Data", CLEAR_SITE_DATA);
    return response;
  },
  { auth: false },
);

const notAllowed = methodNotAllowedHandler(["POST"]);

export {
  notAllowed as GET,
  notAllowed as PUT,
  notAllowed as PATCH,
  notAllowed as DELETE,
  notAllowed as OPTIONS,
  signOut as POST,
};
