import { SignJWT } from "jose";
import { getEnv } from "@/lib/env";
import type { Role } from "./roles.ts";
import { scopeClaimForRoles } from "./scopes.ts";
import { accessTokenKey } from "./secrets.ts";

export interface AccessTokenSubject {
  userId: string;
  name?: string | null;
  role?: Role | null;
  /** The sign-in session the token belongs to; also sent as X-Session-ID. */
  sessionId: string;
}

export interface IssuedAccessToken {
  token: string;
  /** Seconds since the epoch. */
  expiresAt: number;
}

/**
 * A short-lived HS256 JWT for the signed-in user, verifiable by the API in AUTH_MODE=jwt exactly like
 * an external caller's token: signed with AUTH_JWT_SECRET and carrying the configured issuer and audience.
 */
export async function issueAccessToken(
  subject: AccessTokenSubject,
  now: number = Date.now(),
): Promise<IssuedAccessToken> {
  const env = getEnv();
  const issuedAt = Math.floor(now / 1000);
  const expiresAt = issuedAt + env.AUTH_ACCESS_TOKEN_TTL;
  let jwt = new SignJWT({
    name: subject.name ?? undefined,
    role: subject.role ?? undefined,
    // Explicit OAuth-style scopes, so any verifier sees what this user may read (support agents: no PII).
    scope: subject.role ? scopeClaimForRoles([subject.role]) : undefined,
    sid: subject.sessionId,
  })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setSubject(subject.userId)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiresAt)
    .setJti(crypto.randomUUID());
  if (env.AUTH_JWT_ISSUER) jwt = jwt.setIssuer(env.AUTH_JWT_ISSUER);
  if (env.AUTH_JWT_AUDIENCE) jwt = jwt.setAudience(env.AUTH_JWT_AUDIENCE);
  return { token: await jwt.sign(accessTokenKey()), expiresAt };
}
