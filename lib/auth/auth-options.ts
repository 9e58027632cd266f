import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import { getEnv } from "@/lib/env";
import { verifyDemoCredentials } from "./demo-users.ts";
import { SIGN_IN_PATH } from "./paths.ts";
import { isRole, type Role } from "./roles.ts";
import { sessionSecret } from "./secrets.ts";

export { SIGN_IN_PATH };

const SESSION_MAX_AGE = 8 * 60 * 60; // a working day

export interface AuthProviderSettings {
  demoUsers: boolean;
  oidc: { name: string } | null;
}

/** Which sign-in methods are on: OIDC when configured; demo users unless turned off (default: off with OIDC). */
export function authProviderSettings(): AuthProviderSettings {
  const env = getEnv();
  const oidcConfigured = Boolean(env.OIDC_ISSUER && env.OIDC_CLIENT_ID && env.OIDC_CLIENT_SECRET);
  const demoUsers = env.AUTH_DEMO_USERS ? env.AUTH_DEMO_USERS === "on" : !oidcConfigured;
  return { demoUsers, oidc: oidcConfigured ? { name: env.OIDC_NAME } : null };
}

/** A role claim from the identity provider: `role`, or the first known entry of `roles` / `groups`. */
export function roleFromClaims(claims: Record<string, unknown>): Role | null {
  if (isRole(claims.role)) return claims.role;
  for (const key of ["roles", "groups"]) {
    const list = claims[key];
    if (Array.isArray(list)) {
      const found = list.find(isRole);
      if (found) return found;
    }
  }
  return null;
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
      profile(profile: Record<string, unknown>) {
        const email = typeof profile.email === "string" ? profile.email : null;
        const name =
          [profile.name, profile.preferred_username, email].find((v) => typeof v === "string") ?? "User";
        return { id: String(profile.sub), name: String(name), email, role: roleFromClaims(profile) };
      },
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
        authorize: (credentials) => verifyDemoCredentials(credentials?.username, credentials?.password),
      }),
    );
  }
  return {
    secret: sessionSecret(),
    providers,
    session: { strategy: "jwt", maxAge: SESSION_MAX_AGE },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    callbacks: {
      jwt({ token, user }) {
        if (user) {
          // A new sign-in: a fresh session id (sent to the API as X-Session-ID) and the user's role.
          token.sid = crypto.randomUUID();
          token.role = "role" in user && isRole(user.role) ? user.role : null;
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
