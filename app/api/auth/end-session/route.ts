import type { NextRequest } from "next/server";
import { getToken } from "next-auth/jwt";
import { providerSignOutUrl } from "@/lib/auth/end-session";
import { sessionSecret } from "@/lib/auth/secrets";

export const dynamic = "force-dynamic";

/**
 * Where to send the browser to end the identity provider's session too: `{ url }`, null when there is none
 * (demo sessions). Asked by the sign-out button before next-auth's own sign-out drops the cookie.
 */
export async function GET(request: NextRequest): Promise<Response> {
  const secret = sessionSecret();
  const token =
    (await getToken({ req: request, secret, secureCookie: true })) ??
    (await getToken({ req: request, secret, secureCookie: false }));
  const url = await providerSignOutUrl(token, request.nextUrl.origin).catch(() => null);
  return Response.json({ url }, { headers: { "Cache-Control": "no-store" } });
}
