import { decodeJwt } from "jose";
import type { NextAuthOptions, User } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import type { Client, TokenSetParameters } from "openid-client";
import { getEnv } from "@/lib/env";
import { clientAddress } from "@/lib/http/client-address";
import { verifyDemoCredentials } from "./demo-users.ts";
import { redirectOnSite, SIGN_IN_PATH } from "./paths.ts";
import { isRole, primaryRole, type Role, rolesFromClaims } from "./roles.ts";
import { sessionSecret } from "./secrets.ts";
import { verifyThrottled } from "./sign-in-throttle.ts";

export { SIGN_IN_PATH };

const SESSION_MAX_AGE = 8 * 60 * 60; // a working day

export interface AuthProviderSettings {
  demoUsers: boolean;
  oidc: { name: string } | null;
}

/**
 * Which sign-in methods are on. OIDC when configured. The demo accounts (published passwords, one of them an
 * admin) only in AUTH_MODE=demo without OIDC, unless AUTH_DEMO_USERS says otherwise: anywhere else they
 * would hand out real tokens to anyone who read the README.
 */
export function authProviderSettings(): AuthProviderSettings {
  const env = getEnv();
  const oidcConfigured = Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);
  const demoUsers = env.AUTH_DEMO_USERS
    ? env.AUTH_DEMO_USERS === "on"
    : env.AUTH_MODE === "demo" && !oidcConfigured;
  return { demoUsers, oidc: oidcConfigured ? { name: env.OIDC_NAME } : null };
}

/** The start-up warning when the demo accounts were turned on outside demo mode; null otherwise. */
export function demoUsersWarning(): string | null {
  const env = getEnv();
  if (env.AUTH_MODE === "demo" || !authProviderSettings().demoUsers) return null;
  return `AUTH_DEMO_USERS=on with AUTH_MODE=${env.AUTH_MODE}: the demo accounts, whose passwords are published, sign in with their roles (one is an admin). Never on a deployment with real player data.`;
}

/** The identity provider's role claims, mapped exactly as the API maps a token's (lib/auth/roles.ts). */
export function roleFromClaims(claims: Record<string, unknown>): Role | null {
  return primaryRole(rolesFromClaims(claims));
}

/** The ID token's claims (verified by next-auth's client), completed from userinfo when they lack any. */
export async function profileClaims(
  tokens: Pick<TokenSetParameters, "id_token" | "access_token">,
  client: Pick<Client, "userinfo">,
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

/** next-auth hands providers the request's headers as a plain object. */
function headersOf(headers: Record<string, unknown> | undefined): Headers {
  const entries = Object.entries(headers ?? {}).filter(
    (e): e is [string, string] => typeof e[1] === "string",
  );
  return new Headers(entries);
}

export function buildAuthOptions(): NextAuthOptions {
  const env = getEnv();
  const settings = authProviderSettings();
  const providers: NextAuthOptions["providers"] = [];
  if (settings.oidc && env.OIDC_ISSUER) {
    const issuer = env.OIDC_ISSUER.replace(/\/$/, "");
    providers.push({
      id: "oidc",
      name: settings.oidc.name,
      type: "oauth",
      wellKnown: `${issuer}/.well-known/openid-configuration`,
      issuer,
      clientId: env.OIDC_CLIENT_ID,
      clientSecret: env.OIDC_CLIENT_SECRET,
      authorization: { params: { scope: "openid email profile" } },
      idToken: true,
      checks: ["pkce", "state"],
      // A provider may put only `sub` in the ID token (oidc-provider's default) and the rest in userinfo.
      userinfo: { request: ({ tokens, client }) => profileClaims(tokens, client) },
      profile: (profile: Record<string, unknown>) => userFromProfile(profile),
    });
  }
  if (settings.demoUsers) {
    providers.push(
      CredentialsProvider({
        id: "credentials",
        name: "Demo account",
        credentials: {
          username: { label: "Username", type: "text" },
          password: { label: "Password", type: "password" },
        },
        // Every password check is throttled here, where next-auth calls it, whichever path the request took.
        authorize: (credentials, request) => {
          const username: unknown = credentials?.username;
          const attempt = {
            username: typeof username === "string" ? username : "",
            address: clientAddress(headersOf(request?.headers)),
          };
          return verifyThrottled(attempt, () => verifyDemoCredentials(username, credentials?.password));
        },
      }),
    );
  }
  return {
    secret: sessionSecret(),
    providers,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    callbacks: {
      // The callbackUrl is the client's: only a path on this site is followed.
      redirect: redirectOnSite,
      jwt({ token, user, account }) {
        if (user) {
          // A new sign-in: a fresh session id (sent to the API as X-Session-ID) and the user's role.
          token.sid = crypto.randomUUID();
          token.role = "role" in user && isRole(user.role) ? user.role : null;
          // Kept (encrypted in the cookie, never in the session) for ending the provider's session too.
          token.idToken = account?.id_token;
        }
        return token;
      },
      session({ session, token }) {
        return {
          ...session,
          user: { ...session.user, id: token.sub ?? "", role: isRole(token.role) ? token.role : null },
          sessionId: typeof token.sid === "string" ? token.sid : "",
        };
      },
    },
  };
}

let cached: NextAuthOptions | undefined;

/** next-auth's configuration, built once per process from the environment. */
export function getAuthOptions(): NextAuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}
