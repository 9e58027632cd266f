import { type NextRequest, NextResponse } from "next/server";
import { SIGN_IN_REASON_EXPIRED, signInPath } from "@/platform/auth/paths";
import { expiredSessionCookies, sessionCookieToken } from "@/platform/auth/session-cookie";
import { isLive, sessionState } from "@/platform/auth/session-store";

/**
 * Every page except sign-in needs a live session: a cookie naming a session that was signed out or is past its
 * absolute expiry counts as none (and is dropped). Without one, go to sign-in and come back afterwards. (The
 * pages' layout checks the session again on the server, re-reading the roles when due; this adds the way back.)
 * API routes authenticate themselves; malformed /api paths are flagged before routing by platform/http/request-stamp.ts.
 */
export async function proxy(request: NextRequest) {
  const token = await sessionCookieToken(request);
  if (typeof token?.sid === "string") {
    let state: Awaited<ReturnType<typeof sessionState>>;
    try {
      state = await sessionState(token.sid);
    } catch {
      // The session table cannot be read (database down): nothing on the page could be, either.
      return new NextResponse("The service is unavailable; try again shortly.", {
        status: 503,
        headers: {
          "Content-Type": "text/plain; charset=utf-8",
          "Retry-After": "5",
          "Cache-Control": "no-store",
        },
      });
    }
    if (isLive(state)) return NextResponse.next();
  }
  const back = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  // A session cookie that no longer stands for a live session: the session expired (or was ended elsewhere).
  // Sign-in says so, instead of greeting the user as if they had never signed in.
  const dropped = expiredSessionCookies(request);
  const reason = dropped.length > 0 ? SIGN_IN_REASON_EXPIRED : null;
  const response = NextResponse.redirect(new URL(signInPath(back, reason), request.url));
  for (const cookie of dropped) response.headers.append("Set-Cookie", cookie);
  return response;
}

export const config = {
  // Pages only: API routes authenticate themselves; static assets, sign-in and the problem types are public.
  matcher: [
    "/((?!api/|_next/|sign-in|problems(?:/|$)|favicon\\.ico|robots\\.txt|.*\\.(?:png|svg|ico|webp|css|js|map)$).*)",
  ],
};
