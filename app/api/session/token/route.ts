import { issueAccessToken } from "@/lib/auth/access-token";
import { getCurrentSession } from "@/lib/auth/session";
import { readRoute } from "@/lib/http/api-handler";
import { unauthorized } from "@/lib/http/problem";
import { jsonResponse } from "@/lib/http/responses";

export const dynamic = "force-dynamic";

/**
 * The browser's credentials for /api/v1: a short-lived access token for the signed-in user and the
 * sign-in session's id. Authenticated by the next-auth session cookie, not by a bearer token.
 */
export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute(
  async () => {
    const session = await getCurrentSession();
    if (!session) throw unauthorized("Sign in to get an access token.");
    const { token, expiresAt } = await issueAccessToken({
      userId: session.user.id,
      name: session.user.name,
      role: session.user.role,
      sessionId: session.sessionId,
    });
    return jsonResponse({
      access_token: token,
      token_type: "Bearer",
      expires_at: expiresAt,
      session_id: session.sessionId,
    });
  },
  { auth: false },
);
