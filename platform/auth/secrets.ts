import { createHmac, randomBytes } from "node:crypto";
import { type Env, getEnv } from "@/platform/env/env";
import { log } from "@/platform/log/log";

let processSecret: string | undefined;

/**
 * Why the server cannot sign in users with this configuration, or null. No random per-process fallback: the
 * launcher provides a generated secret for the embedded quick start (platform/auth/generated-secrets.ts), and anywhere
 * else a secret nobody set would be one nobody can rotate, share between instances or keep across restarts.
 */
export function missingSessionSecret(env: Pick<Env, "NEXTAUTH_SECRET" | "AUTH_SECRET">): string | null {
  if (env.NEXTAUTH_SECRET || env.AUTH_SECRET) return null;
  return "NEXTAUTH_SECRET is not set: the back-office sign-in signs its session cookies with it. Set it (e.g. `openssl rand -base64 48`), the same on every instance; only the embedded quick start (no DATABASE_URL) generates one.";
}

/**
 * Signs and encrypts the next-auth session cookie. A process with a database and no secret fails closed (throws;
 * the server refuses to start that way, see platform/runtime/server-hooks.ts). Only a process that reaches no data at
 * all (no DATABASE_URL: unit tests, a build) gets a random secret of its own.
 */
export function sessionSecret(): string {
  const env = getEnv();
  const missing = missingSessionSecret(env);
  if (!missing) return env.NEXTAUTH_SECRET ?? env.AUTH_SECRET ?? "";
  if (env.DATABASE_URL) throw new Error(missing);
  if (!processSecret) {
    processSecret = randomBytes(32).toString("base64url");
    log.warn("NEXTAUTH_SECRET is not set and there is no database; using a random secret for this process");
  }
  return processSecret;
}

/**
 * Signs the API access tokens the app issues to signed-in users: AUTH_JWT_SECRET, the key the API verifies
 * HS256 tokens with. In demo mode without it, a key derived from the session secret: the API never verifies
 * with that key, so such tokens are plain demo tokens. In AUTH_MODE=jwt there is no derived key: the API
 * would refuse its tokens (env validation refuses a jwt configuration with sign-in but without the secret).
 */
export function accessTokenKey(): Uint8Array {
  const env = getEnv();
  if (env.AUTH_JWT_SECRET) return new TextEncoder().encode(env.AUTH_JWT_SECRET);
  if (env.AUTH_MODE === "jwt") {
    throw new Error("AUTH_MODE=jwt without AUTH_JWT_SECRET: the API accepts no tokens this app could issue");
  }
  return new Uint8Array(createHmac("sha256", sessionSecret()).update("api-access-token").digest());
}
