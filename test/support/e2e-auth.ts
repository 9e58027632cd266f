import { SignJWT } from "jose";

/*
 * The test servers run in demo mode with this secret configured, as the UI does: tokens signed with it
 * are read by their claims (roles → scopes); any other token is the spec's demo caller.
 */
export const E2E_JWT_SECRET = process.env.E2E_JWT_SECRET ?? "e2e-only-secret-e2e-only-secret-e2e";

export function signToken(
  sub: string,
  claims: Record<string, unknown>,
  secret = E2E_JWT_SECRET,
): Promise<string> {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(sub)
    .setExpirationTime("15m")
    .sign(new TextEncoder().encode(secret));
}

export const authHeaders = (token: string, sessionId = "e2e-session") => ({
  Authorization: `Bearer ${token}`,
  "X-Session-ID": sessionId,
});
