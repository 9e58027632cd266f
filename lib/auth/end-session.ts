import type { JWT } from "next-auth/jwt";
import { getEnv } from "@/lib/env";
import { authProviderSettings } from "./auth-options.ts";
import { SIGN_IN_PATH } from "./paths.ts";

/*
 * RP-initiated logout (OpenID Connect RP-Initiated Logout 1.0): signing out of the back office also ends
 * the session at the identity provider, or the next "Sign in with …" would sign the same person straight
 * back in without asking for credentials.
 */

let discovery: Promise<string | null> | undefined;

/** The provider's end_session_endpoint from its discovery document (cached; a failed fetch is retried). */
function endSessionEndpoint(issuer: string): Promise<string | null> {
  discovery ??= fetch(`${issuer.replace(/\/$/, "")}/.well-known/openid-configuration`, {
    signal: AbortSignal.timeout(5_000),
  })
    .then(async (res) => {
      if (!res.ok) throw new Error(`discovery answered ${res.status}`);
      const { end_session_endpoint: endpoint } = (await res.json()) as { end_session_endpoint?: unknown };
      return typeof endpoint === "string" && URL.canParse(endpoint) ? endpoint : null;
    })
    .catch((error: unknown) => {
      discovery = undefined;
      throw error;
    });
  return discovery;
}

/**
 * Where the browser goes after the app's own sign-out: the provider's end-session endpoint with the user's
 * ID token as hint, coming back to the sign-in page. null for demo sessions or a provider without one.
 */
export async function providerSignOutUrl(token: JWT | null, requestOrigin: string): Promise<string | null> {
  const env = getEnv();
  if (!token?.idToken || !authProviderSettings().oidc || !env.OIDC_ISSUER) return null;
  const endpoint = await endSessionEndpoint(env.OIDC_ISSUER);
  if (!endpoint) return null;
  const url = new URL(endpoint);
  url.searchParams.set("id_token_hint", token.idToken);
  url.searchParams.set(
    "post_logout_redirect_uri",
    new URL(SIGN_IN_PATH, env.NEXTAUTH_URL ?? requestOrigin).href,
  );
  if (env.OIDC_CLIENT_ID) url.searchParams.set("client_id", env.OIDC_CLIENT_ID);
  return url.href;
}
