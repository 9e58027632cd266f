import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { SIGN_IN_PATH } from "@/lib/auth/paths";
import { sessionSecret } from "@/lib/auth/secrets";
import { undecodablePathResponse } from "@/lib/http/undecodable-path";

/**
 * Runs before Next matches routes.
 * - /api: the only place where an undecodable path can still get a problem body (API routes authenticate themselves).
 * - pages: every page except sign-in needs a session; without one, go to sign-in and come back afterwards
 *   (the pages' layout checks the session again on the server; this adds the way back).
 */
export async function proxy(request: NextRequest) {
  if (request.nextUrl.pathname.startsWith("/api/")) {
    return undecodablePathResponse(request) ?? NextResponse.next();
  }
  const secret = sessionSecret();
  // The cookie is named __Secure-… over https and plainly over http; accept either.
  const token =
    (await getToken({ req: request, secret, secureCookie: true })) ??
    (await getToken({ req: request, secret, secureCookie: false }));
  if (token) return NextResponse.next();
  const signIn = new URL(SIGN_IN_PATH, request.url);
  const back = `${request.nextUrl.pathname}${request.nextUrl.search}`;
  if (back !== "/") signIn.searchParams.set("callbackUrl", back);
  return NextResponse.redirect(signIn);
}

export const config = {
  // Static assets and the sign-in page are public.
  matcher: [
    "/api/:path*",
    "/((?!api/|_next/|sign-in|favicon\\.ico|robots\\.txt|.*\\.(?:png|svg|ico|webp|css|js|map)$).*)",
  ],
};
