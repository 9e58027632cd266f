import { NextRequest } from "next/server";
import { getToken, type JWT } from "next-auth/jwt";
import { sessionSecret } from "./secrets.ts";

/** next-auth's session cookie: `__Secure-` over https, plain over http, split into `.0`, `.1`… when large. */
const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?$/;

/** The request's URL and headers as a NextRequest (its parsed cookies), leaving its body alone. */
function withCookies(request: Request): NextRequest {
  return request instanceof NextRequest
    ? request
    : new NextRequest(request.url, { headers: request.headers });
}

/** The session cookie's contents (either name is read), or null when there is none or it does not decrypt. */
export async function sessionCookieToken(request: Request): Promise<JWT | null> {
  const req = withCookies(request);
  const secret = sessionSecret();
  return (
    (await getToken({ req, secret, secureCookie: true })) ??
    (await getToken({ req, secret, secureCookie: false }))
  );
}

/** Set-Cookie values that drop every session cookie the request carried, chunks included. */
export function expiredSessionCookies(request: Request): string[] {
  return withCookies(request)
    .cookies.getAll()
    .map(({ name }) => name)
    .filter((name) => SESSION_COOKIE.test(name))
    .map(
      (name) =>
        `${name}=; Path=/; Max-Age=0; Expires=Thu, 01 Jan 1970 00:00:00 GMT; HttpOnly; SameSite=Lax${name.startsWith("__Secure-") ? "; Secure" : ""}`,
    );
}
