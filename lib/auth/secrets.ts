import { createHmac, randomBytes } from "node:crypto";
import { getEnv } from "@/lib/env";
import { log } from "@/lib/log";

let processSecret: string | undefined;

/**
 * Last resort when the app is started without the launcher (which provides persisted secrets, see
 * generated-secrets.ts) and without configuration: a random secret for this process. Sign-ins then
 * end with a restart, which is acceptable for a demo and never silent.
 */
function fallbackSecret(): string {
  if (!processSecret) {
    processSecret = randomBytes(32).toString("base64url");
    log.warn("NEXTAUTH_SECRET is not set; using a random secret for this process (sign-ins end on restart)");
  }
  return processSecret;
}

/** Signs and encrypts the next-auth session cookie. */
export function sessionSecret(): string {
  const env = getEnv();
  return env.NEXTAUTH_SECRET ?? env.AUTH_SECRET ?? fallbackSecret();
}

/**
 * Signs the API access tokens the app issues to signed-in users: AUTH_JWT_SECRET, the key the API
 * verifies with in AUTH_MODE=jwt. Without it (demo mode) a key derived from the session secret.
 */
export function accessTokenKey(): Uint8Array {
  const secret = getEnv().AUTH_JWT_SECRET;
  if (secret) return new TextEncoder().encode(secret);
  return new Uint8Array(createHmac("sha256", sessionSecret()).update("api-access-token").digest());
}
