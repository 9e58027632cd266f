import { decodeJwt } from "jose";
import type { User } from "next-auth";
import { primaryRole, type Role, rolesFromClaims } from "./roles.ts";

/** What profileClaims needs of an OpenID client: its userinfo call. */
export interface UserinfoClient {
  userinfo(accessToken: string): Promise<Record<string, unknown>>;
}

/** The identity provider's role claims, mapped exactly as the API maps a token's (platform/auth/roles.ts). */
export function roleFromClaims(claims: Record<string, unknown>): Role | null {
  return primaryRole(rolesFromClaims(claims));
}

/**
 * The ID token's claims (verified by whoever received it from the provider), completed from userinfo when they
 * lack any: at sign-in and whenever the roles are re-read.
 */
export async function profileClaims(
  tokens: { id_token?: string; access_token?: string },
  client: UserinfoClient,
): Promise<Record<string, unknown>> {
  const claims: Record<string, unknown> = tokens.id_token ? decodeJwt(tokens.id_token) : {};
  const complete =
    ["name", "email"].every((k) => typeof claims[k] === "string") && rolesFromClaims(claims).length > 0;
  if (complete || !tokens.access_token) return claims;
  const userinfo = await client.userinfo(tokens.access_token);
  // OpenID Connect Core 5.3.2: userinfo about anyone but the ID token's subject must not be used.
  if (claims.sub !== undefined && userinfo.sub !== claims.sub) {
    throw new Error("the userinfo response is about another subject than the ID token");
  }
  return { ...userinfo, ...claims };
}

/** The signed-in user from the provider's claims; the role mapped as the API maps a token's. */
export function userFromProfile(profile: Record<string, unknown>): User {
  const email = typeof profile.email === "string" ? profile.email : null;
  const name = [profile.name, profile.preferred_username, email].find((v) => typeof v === "string") ?? "User";
  return { id: String(profile.sub), name: String(name), email, role: roleFromClaims(profile) };
}
