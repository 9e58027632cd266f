import NextAuth from "next-auth";
import { getAuthOptions } from "@/platform/auth/auth-options";
import { SIGN_IN_PATH } from "@/platform/auth/paths";
import { methodNotAllowedHandler } from "@/platform/http/api-handler";
import { CLEAR_SITE_DATA } from "@/platform/http/responses";
import { runSignIn } from "@/platform/http/sign-in-throttle";
import { PROBLEM_TYPES } from "@/platform/problems/problem";

export const dynamic = "force-dynamic";

type RouteContext = { params: Promise<{ nextauth: string[] }> };

/**
 * next-auth, built per request from the cached options so that the build never reads the environment. A password
 * sign-in the credentials provider refused as throttled is answered 429.
 */
async function handler(request: Request, context: RouteContext): Promise<Response> {
  const [action, provider] = (await context.params).nextauth;
  // next-auth answers a password callback that is not a POST with a 500.
  if (action === "callback" && provider === "credentials" && request.method !== "POST") {
    return postOnly(request);
  }
  const { result, retryAfter } = await runSignIn<Response>(() =>
    NextAuth(getAuthOptions())(request, context),
  );
  if (retryAfter !== null) return tooManySignIns(request, retryAfter);
  return action === "signout" && request.method === "POST" ? clearingSiteData(result) : result;
}

/** next-auth's own sign-out, like the pages' (end-session): the browser drops its cache and the origin's storage. */
function clearingSiteData(response: Response): Response {
  const headers = new Headers(response.headers);
  headers.set("Clear-Site-Data", CLEAR_SITE_DATA);
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
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

const postOnly = methodNotAllowedHandler(["POST"]);

// Every other method, OPTIONS included, is a 405 problem like on every other route.
const notAllowed = methodNotAllowedHandler(["GET", "HEAD", "POST"]);

export { notAllowed as PUT, notAllowed as PATCH, notAllowed as DELETE, notAllowed as OPTIONS };
