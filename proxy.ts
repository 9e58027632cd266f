import { type NextRequest, NextResponse } from "next/server";
import { getToken } from "next-auth/jwt";
import { SIGN_IN_PATH } from "@/lib/auth/paths";
import { sessionSecret } from "@/lib/auth/secrets";

/**
 * Every page except sign-in needs a session: without one, go to sign-in and come back afterwards.
 * (The pages' layout checks the session again on the server; this adds the way back.) API routes
 * authenticate themselves; malformed /api paths are flagged before routing by lib/http/request-stamp.ts.
 */
export async function proxy(request: NextRequest) {
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
  // Pages only: API routes authenticate themselves, and static assets and sign-in are public.
  matcher: ["/((?!api/|_next/|sign-in|favicon\\.ico|robots\\.txt|.*\\.(?:png|svg|ico|webp|css|js|map)$).*)"],
};
