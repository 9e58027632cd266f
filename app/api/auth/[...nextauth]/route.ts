import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/auth-options";
import { SIGN_IN_PATH } from "@/lib/auth/paths";
import { getSignInThrottle, type SignInAttempt } from "@/lib/auth/sign-in-throttle";
import { methodNotAllowedHandler } from "@/lib/http/api-handler";
import { clientAddress } from "@/lib/http/client-address";
import { PROBLEM_TYPES } from "@/lib/http/problem";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

// Built per request from the cached options so that the build never reads the environment.
async function handler(request: Request, context: RouteContext): Promise<Response> {
  const { nextauth } = await context.params;
  if (request.method === "POST" && nextauth.join("/") === "callback/credentials") {
    return throttledPasswordSignIn(request, context);
  }
  return NextAuth(getAuthOptions())(request, context);
}

/** The password sign-in, refused with 429 once the account or the address has failed too often. */
async function throttledPasswordSignIn(request: Request, context: RouteContext): Promise<Response> {
  const form = await request
    .clone()
    .formData()
    .catch(() => null);
  const username = form?.get("username");
  const attempt: SignInAttempt = {
    username: typeof username === "string" ? username : "",
    address: clientAddress(request.headers),
  };
  const throttle = getSignInThrottle();
  const retryAfter = await throttle.retryAfter(attempt);
  if (retryAfter !== null) return tooManySignIns(request, retryAfter);
  const response = await NextAuth(getAuthOptions())(request, context);
  if (!startsSession(response)) await throttle.recordFailure(attempt);
  return response;
}

/** next-auth sets the session cookie only when the credentials were accepted. */
function startsSession(response: Response): boolean {
  return response.headers.getSetCookie().some((c) => /^(__Secure-)?next-auth\.session-token=[^;]/.test(c));
}

/**
 * RFC 9457 problem, with next-auth's `url` member so that its client's signIn() reports the error
 * `TooManyAttempts` (the form explains it) instead of failing to parse the answer.
 */
function tooManySignIns(request: Request, retryAfter: number): Response {
  const url = new URL(SIGN_IN_PATH, request.url);
  url.searchParams.set("error", "TooManyAttempts");
  const body = {
    type: PROBLEM_TYPES.rateLimited,
    title: "Too many failed sign-ins",
    status: 429,
    detail: `Too many failed sign-ins for this account or from this address; try again in ${retryAfter} s.`,
    url: url.toString(),
  };
  return new Response(JSON.stringify(body), {
    status: 429,
    headers: {
      "Content-Type": "application/problem+json",
      "Cache-Control": "no-store",
      "Retry-After": String(retryAfter),
    },
  });
}

export { handler as GET, handler as POST };

// Every other method, OPTIONS included, is a 405 problem like on every other route.
const notAllowed = methodNotAllowedHandler(["GET", "HEAD", "POST"]);

export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE, notAllowed as OPTIONS };
