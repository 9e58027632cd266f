import type { JWT } from "next-auth/jwt";
import { getEnv } from "@/platform/env/env";
import { invalidParameters } from "@/platform/problems/problem";
import { authProviderSettings } from "./auth-options.ts";
import { oidcMetadata } from "./oidc-discovery.ts";
import { SIGN_IN_PATH } from "./paths.ts";
import { readSession, revokeSession } from "./session-store.ts";

/*
 * Sign-out: the server-side session ends (every cookie and API token naming it is refused from then on), and a
 * single sign-on user goes on to the provider's end-session endpoint (RP-Initiated Logout 1.0), or the next
 * "Sign in with …" would sign the same person straight back in. The provider is told the client by `client_id`,
 * not by `id_token_hint`: the ID token would end up in the browser's address bar and history. The app keeps no
 * ID token at all.
 */

/**
 * This site's origin as browsers name it: NEXTAUTH_URL's when set, else the one the request was addressed to
 * (its Host header; Next.js's request.url names the address the server listens on instead).
 */
export function appOrigin(request: Request): string {
  const configured = getEnv().NEXTAUTH_URL;
  if (configured) return new URL(configured).origin;
  const url = new URL(request.url);
  const host = request.headers.get("host");
  return host ? `${url.protocol}//${host}` : url.origin;
}

/**
 * Sign-out changes state: only this site's own pages may ask for it (the cookie is SameSite=Lax, so a cross-site
 * POST carries none anyway). Browsers say where a request comes from in Sec-Fetch-Site, which no page can set;
 * without it, `Origin` must be this site's. A 400 naming `Origin` otherwise.
 */
export function refuseCrossSite(request: Request): void {
  const site = request.headers.get("sec-fetch-site");
  const origin = request.headers.get("origin");
  if (site === null ? origin === appOrigin(request) : site === "same-origin") return;
  throw invalidParameters([
    {
      name: "Origin",
      in: "header",
      detail: "must be this site's own origin (sign-out is asked by its pages)",
    },
  ]);
}

/** Where the browser goes after signing out: the provider's end-session endpoint for a single sign-on session. */
export async function signOutDestination(provider: string | null, origin: string): Promise<string> {
  const env = getEnv();
  if (provider !== "oidc" || !authProviderSettings().oidc || !env.OIDC_ISSUER || !env.OIDC_CLIENT_ID) {
    return SIGN_IN_PATH;
  }
  const endpoint = await oidcMetadata(env.OIDC_ISSUER).then(
    (metadata) => metadata.end_session_endpoint,
    () => undefined,
  );
  if (!endpoint) return SIGN_IN_PATH;
  const url = new URL(endpoint);
  url.searchParams.set("client_id", env.OIDC_CLIENT_ID);
  url.searchParams.set("post_logout_redirect_uri", new URL(SIGN_IN_PATH, env.NEXTAUTH_URL ?? origin).href);
  return url.href;
}

/** Ends the sign-in session the cookie names (if any); where the browser goes next. */
export async function endSignInSession(token: JWT | null, origin: string): Promise<string> {
  const sid = typeof token?.sid === "string" ? token.sid : null;
  const state = sid ? await readSession(sid) : null;
  if (sid) await revokeSession(sid, "sign-out");
  return signOutDestination(state?.provider ?? null, origin);
}
