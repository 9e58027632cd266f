import { issueAccessToken } from "@/platform/auth/access-token";
import { liveSession } from "@/platform/auth/live-session";
import { sessionCookieToken } from "@/platform/auth/session-cookie";
import { readRoute } from "@/platform/http/api-handler";
import { jsonResponse } from "@/platform/http/responses";
import { unauthorized } from "@/platform/problems/problem";

export const dynamic = "force-dynamic";

/**
 * The browser's credentials for /api/v1: a short-lived access token for the signed-in user and the
 * sign-in session's id. Authenticated by the next-auth session cookie, not by a bearer token: the session it
 * names must be live (not signed out, not past its absolute expiry), and the user's roles are re-read from the
 * identity provider here when they are due. The session table unreachable is a 503, not a sign-out.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async function sessionTokenRoute({ request }) {
    const cookie = await sessionCookieToken(request);
    const session = typeof cookie?.sid === "string" ? await liveSession(cookie.sid) : null;
    if (!session) throw unauthorized({ detail: "Sign in to get an access token." });
    const { token, expiresAt } = await issueAccessToken({ sessionId: session.id, name: cookie?.name });
    return jsonResponse({
      access_token: token,
      token_type: "Bearer",
      expires_at: expiresAt,
      session_id: session.id,
    });
  },
  { auth: false },
);
