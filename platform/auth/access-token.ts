import { SignJWT } from "jose";
import { getEnv } from "@/platform/env/env";
import { unauthorized } from "@/platform/problems/problem";
import { scopeClaimForRoles } from "./scopes.ts";
import { accessTokenKey } from "./secrets.ts";
import { isLive, sessionState } from "./session-store.ts";
import { ACCESS_TOKEN_TYPE, BACK_OFFICE_CLIENT_ID } from "./token-kind.ts";

export interface AccessTokenSubject {
  /** The sign-in session the token is minted from; also sent as X-Session-ID. */
  sessionId: string;
  name?: string | null;
}

export interface IssuedAccessToken {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * A short-lived RFC 9068 access token (HS256, `typ: at+jwt`) for a signed-in user, verifiable by the API in
 * AUTH_MODE=jwt exactly like an external caller's token: signed with AUTH_JWT_SECRET, carrying the configured
 * issuer and audience. Minted only from a live session: its subject and role are the session's as of now, and it
 * expires with the session at the latest. The API checks the session again on every request (platform/auth/api-auth.ts).
 */
export async function issueAccessToken(
  subject: AccessTokenSubject,
  now: number = Date.now(),
): Promise<IssuedAccessToken> {
  const env = getEnv();
  const session = await sessionState(subject.sessionId, now);
  if (!isLive(session, now)) throw unauthorized({ detail: "The sign-in session has ended; sign in again." });
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = Math.min(issuedAt + env.AUTH_ACCESS_TOKEN_TTL, Math.floor(session.expiresAt / 1000));
  let jwt = new SignJWT({
    name: subject.name ?? undefined,
    role: session.role ?? undefined,
    // Explicit OAuth-style scopes, so any verifier sees what this user may read (support agents: no PII).
    scope: session.role ? scopeClaimForRoles([session.role]) : undefined,
    sid: session.id,
    // Marks the tokens the API checks against the session table.
    client_id: BACK_OFFICE_CLIENT_ID,
  })
    .setProtectedHeader({ alg: "HS256", typ: ACCESS_TOKEN_TYPE })
    .setSubject(session.subject)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(crypto.randomUUID());
  if (env.AUTH_JWT_ISSUER) jwt = jwt.setIssuer(env.AUTH_JWT_ISSUER);
  if (env.AUTH_JWT_AUDIENCE) jwt = jwt.setAudience(env.AUTH_JWT_AUDIENCE);
  return { token: await jwt.sign(accessTokenKey()), expiresAt };
}
