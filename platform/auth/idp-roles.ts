import { decodeJwt } from "jose";
import { getEnv } from "@/platform/env/env";
import { type OidcMetadata, oidcMetadata } from "./oidc-discovery.ts";
import { profileClaims, roleFromClaims, type UserinfoClient } from "./profile-claims.ts";
import type { Role } from "./roles.ts";
import type { IdpTokens } from "./session-store.ts";

/*
 * A signed-in user's roles, read again from the identity provider: with the refresh token when the provider gave
 * one (a new access token, and usually a new ID token), then userinfo when the claims lack the roles; without a
 * refresh token, userinfo with the access token while it lasts. Anything else the provider answers (the grant
 * revoked, the user gone, another subject, an error, no answer) throws: the caller ends the session.
 */

const TIMEOUT_MS = 5_000;

export interface RolesReread {
  role: Role | null;
  tokens: IdpTokens;
}

interface OidcClient {
  id: string;
  secret: string;
  metadata: OidcMetadata;
}

/** RFC 6749 2.3.1: client_secret_basic, each part form-urlencoded (as next-auth's client authenticates). */
function basicAuth(client: OidcClient): string {
  const encode = (value: string) => encodeURIComponent(value).replace(/%20/g, "+");
  return `Basic ${Buffer.from(`${encode(client.id)}:${encode(client.secret)}`).toString("base64")}`;
}

async function jsonFrom(res: Response, what: string): Promise<Record<string, unknown>> {
  const body = (await res.json().catch(() => null)) as Record<string, unknown> | null;
  if (!res.ok || body === null || typeof body !== "object") {
    const error = typeof body?.error === "string" ? ` (${body.error.slice(0, 64)})` : "";
    throw new Error(`the provider's ${what} answered ${res.status}${error}`);
  }
  return body;
}

async function refresh(
  client: OidcClient,
  refreshToken: string,
): Promise<{ tokens: IdpTokens; idToken?: string }> {
  const endpoint = client.metadata.token_endpoint;
  if (!endpoint) throw new Error("the provider has no token endpoint");
  const res = await fetch(endpoint, {
    method: "POST",
    headers: { Authorization: basicAuth(client), Accept: "application/json" },
    body: new URLSearchParams({ grant_type: "refresh_token", refresh_token: refreshToken }),
    redirect: "error",
    signal: AbortSignal.timeout(TIMEOUT_MS),
  });
  const body = await jsonFrom(res, "token endpoint");
  if (typeof body.access_token !== "string")
    throw new Error("the provider's refresh answer has no access token");
  const expiresIn = typeof body.expires_in === "number" ? body.expires_in : undefined;
  const tokens: IdpTokens = {
    // A provider that does not rotate refresh tokens sends none back: the old one stays good.
    refreshToken: typeof body.refresh_token === "string" ? body.refresh_token : refreshToken,
    accessToken: body.access_token,
    ...(expiresIn ? { accessTokenExpiresAt: Math.floor(Date.now() / 1000) + expiresIn } : {}),
  };
  return { tokens, ...(typeof body.id_token === "string" ? { idToken: body.id_token } : {}) };
}

/**
 * An ID token received straight from the token endpoint, over the connection this app authenticated to (OpenID
 * Connect Core 3.1.3.7: TLS stands in for the signature there): its issuer, audience and subject must be right.
 */
function checkIdToken(client: OidcClient, idToken: string, subject: string): void {
  const claims = decodeJwt(idToken);
  const audiences = Array.isArray(claims.aud) ? claims.aud : [claims.aud];
  if (claims.iss !== client.metadata.issuer || !audiences.includes(client.id) || claims.sub !== subject) {
    throw new Error("the refreshed ID token is not the back office's ID token for this user");
  }
}

function userinfoClient(client: OidcClient): UserinfoClient {
  return {
    async userinfo(accessToken) {
      const endpoint = client.metadata.userinfo_endpoint;
      if (!endpoint) throw new Error("the provider has no userinfo endpoint");
      const res = await fetch(endpoint, {
        headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/json" },
        redirect: "error",
        signal: AbortSignal.timeout(TIMEOUT_MS),
      });
      return jsonFrom(res, "userinfo endpoint");
    },
  };
}

/** The user's role as the provider says now, and the provider's tokens to keep for the next time. */
export async function rereadRoles(
  subject: string,
  tokens: IdpTokens,
  now = Date.now(),
): Promise<RolesReread> {
  const env = getEnv();
  if (!env.OIDC_ISSUER || !env.OIDC_CLIENT_ID || !env.OIDC_CLIENT_SECRET) {
    throw new Error("single sign-on is no longer configured");
  }
  const client = {
    id: env.OIDC_CLIENT_ID,
    secret: env.OIDC_CLIENT_SECRET,
    metadata: await oidcMetadata(env.OIDC_ISSUER),
  };
  let current = tokens;
  let idToken: string | undefined;
  if (tokens.refreshToken) {
    ({ tokens: current, idToken } = await refresh(client, tokens.refreshToken));
    if (idToken) checkIdToken(client, idToken, subject);
  } else if (!tokens.accessToken || (tokens.accessTokenExpiresAt ?? 0) * 1000 <= now + TIMEOUT_MS) {
    throw new Error("no refresh token, and the access token has expired: the roles cannot be read again");
  }
  const claims = await profileClaims(
    { id_token: idToken, access_token: current.accessToken },
    userinfoClient(client),
  );
  if (claims.sub !== subject) throw new Error("the provider answered about another subject");
  return { role: roleFromClaims(claims), tokens: current };
}
