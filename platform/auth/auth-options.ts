import type { Account, NextAuthOptions, User } from "next-auth";
import { encode, type JWT } from "next-auth/jwt";
import CredentialsProvider from "next-auth/providers/credentials";
import { getEnv } from "@/platform/env/env";
import { describeError, log } from "@/platform/log/log";
import { verifyDemoCredentials } from "./demo-users.ts";
import { liveSession } from "./live-session.ts";
import { redirectOnSite, SIGN_IN_PATH } from "./paths.ts";
import { profileClaims, userFromProfile } from "./profile-claims.ts";
import { isRole } from "./roles.ts";
import { sessionSecret } from "./secrets.ts";
import { createSession, type IdpTokens, revokeSession } from "./session-store.ts";
import { guardedPasswordCheck } from "./sign-in-guard.ts";

export { SIGN_IN_PATH };

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

type Provider = NextAuthOptions["providers"][number];

function oidcProvider(issuerUrl: string, name: string): Provider {
  const env = getEnv();
  const issuer = issuerUrl.replace(/\/$/, "");
  return {
    id: "oidc",
    name,
    type: "oauth",
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    issuer,
    clientId: env.OIDC_CLIENT_ID,
    clientSecret: env.OIDC_CLIENT_SECRET,
    authorization: { params: { scope: env.OIDC_SCOPE } },
    idToken: true,
    checks: ["pkce", "state"],
    // A provider may put only `sub` in the ID token (oidc-provider's default) and the rest in userinfo.
    userinfo: {
      request: ({ tokens, client }) =>
        profileClaims(tokens, {
          userinfo: async (accessToken) => ({ ...(await client.userinfo(accessToken)) }),
        }),
    },
    profile: (profile: Record<string, unknown>) => userFromProfile(profile),
  };
}

function demoProvider(): Provider {
  return CredentialsProvider({
    id: "credentials",
    name: "Demo account",
    credentials: {
      username: { label: "Username", type: "text" },
      password: { label: "Password", type: "password" },
    },
    // Every password check is guarded here, where next-auth calls it, whichever path the request took.
    authorize: (credentials, request) => {
      const username: unknown = credentials?.username;
      const attempt = {
        username: typeof username === "string" ? username : "",
        headers: headersOf(request?.headers),
      };
      return guardedPasswordCheck(attempt, () => verifyDemoCredentials(username, credentials?.password));
    },
  });
}

/** Thrown (and logged as info) when a session cookie names a session that has ended; next-auth drops the cookie. */
class SessionEnded extends Error {
  override name = "SessionEnded";
}

/** The provider's tokens worth keeping to re-read the user's roles; the ID token is not kept anywhere. */
function idpTokensOf(account: Account | null | undefined): IdpTokens | undefined {
  if (account?.provider !== "oidc") return undefined;
  return {
    ...(account.refresh_token ? { refreshToken: account.refresh_token } : {}),
    ...(account.access_token ? { accessToken: account.access_token } : {}),
    ...(account.expires_at ? { accessTokenExpiresAt: account.expires_at } : {}),
  };
}

/**
 * The cookie's contents: at sign-in a new server-side session (its id is sent to the API as X-Session-ID); on
 * every later read (next-auth's /api/auth/session, the pages' getServerSession) the session must still be live,
 * and its role is the one last read from the provider.
 */
async function sessionJwt({ token, user, account }: { token: JWT; user?: User; account?: Account | null }) {
  if (user) {
    const session = await createSession({
      subject: user.id,
      role: "role" in user && isRole(user.role) ? user.role : null,
      provider: account?.provider ?? "credentials",
      idpTokens: idpTokensOf(account),
    });
    token.sid = session.id;
    token.role = session.role;
    token.sessionExpiresAt = Math.floor(session.expiresAt / 1000);
    return token;
  }
  const live = typeof token.sid === "string" ? await liveSession(token.sid) : null;
  if (!live) throw new SessionEnded("the sign-in session has ended");
  token.role = live.role;
  return token;
}

/**
 * next-auth re-encodes the cookie on every session read with a fresh `exp`: bounded here by the session's absolute
 * expiry, so that a cookie in use never outlives its session (the table refuses it anyway).
 */
const boundedEncode: typeof encode = (params) => {
  const endsAt = params.token?.sessionExpiresAt;
  if (typeof endsAt !== "number") return encode(params);
  const left = Math.max(0, endsAt - Math.floor(Date.now() / 1000));
  return encode({ ...params, maxAge: Math.min(params.maxAge ?? left, left) });
};

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
  const providers: Provider[] = [];
  if (settings.oidc && env.OIDC_ISSUER) providers.push(oidcProvider(env.OIDC_ISSUER, settings.oidc.name));
  if (settings.demoUsers) providers.push(demoProvider());
  return {
    secret: sessionSecret(),
    providers,
    session: { strategy: "jwt", maxAge: env.AUTH_SESSION_MAX_AGE_SECONDS },
    jwt: { encode: boundedEncode },
    pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
    callbacks: {
      // The callbackUrl is the client's: only a path on this site is followed.
      redirect: redirectOnSite,
      jwt: sessionJwt,
      session({ session, token }) {
        return {
          ...session,
          expires: new Date((token.sessionExpiresAt ?? 0) * 1000).toISOString(),
          user: { ...session.user, id: token.sub ?? "", role: isRole(token.role) ? token.role : null },
          sessionId: typeof token.sid === "string" ? token.sid : "",
        };
      },
    },
    events: {
      // next-auth's own sign-out (POST /api/auth/signout) revokes too, not only /api/auth/end-session.
      async signOut({ token }) {
        if (typeof token?.sid === "string") await revokeSession(token.sid, "sign-out");
      },
    },
    logger: {
      error(code, metadata) {
        if (metadata instanceof Error && metadata.name === "SessionEnded") {
          log.info("session cookie refused: its sign-in session has ended", { code });
        } else {
          log.error(
            `next-auth: ${code}`,
            describeError(metadata instanceof Error ? metadata : metadata?.error),
          );
        }
      },
      warn: (code) => log.warn(`next-auth: ${code}`),
      debug: () => {},
    },
  };
}

let cached: NextAuthOptions | undefined;

/** next-auth's configuration, built once per process from the environment. */
export function getAuthOptions(): NextAuthOptions {
  cached ??= buildAuthOptions();
  return cached;
}
