/*
 * What every instance behind HAProxy shares, as environment variables: one database, one Redis for the rate limits
 * and the sign-in throttle, one session secret (a session cookie signed by one instance is read by another; the
 * sessions themselves are rows of auth_sessions in that database), and the proxy's address as the only one whose
 * X-Forwarded-* headers are believed.
 */
import { randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { ClusterSettings } from "./cluster-settings.ts";

export interface SharedSecrets {
  NEXTAUTH_SECRET: string;
}

/**
 * NEXTAUTH_SECRET from the environment, else the one generated for this cluster at its first start
 * (`<state dir>/secrets.json`, readable by this user only): the same for every instance and every restart.
 */
export function sharedSecrets(stateDir: string, env: Record<string, string | undefined>): SharedSecrets {
  const given = env.NEXTAUTH_SECRET ?? env.AUTH_SECRET;
  if (given) return { NEXTAUTH_SECRET: given };
  const file = path.join(stateDir, "secrets.json");
  if (existsSync(file)) return JSON.parse(readFileSync(file, "utf8")) as SharedSecrets;
  mkdirSync(stateDir, { recursive: true });
  const secrets = { NEXTAUTH_SECRET: randomBytes(48).toString("base64") };
  writeFileSync(file, `${JSON.stringify(secrets)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return secrets;
}

/**
 * The variables the cluster sets on each instance, over the operator's own (AUTH_*, OIDC_*, … pass through).
 * `ownDatabase`: the cluster's demo database on the local server, reached as its superuser, which `npm start`
 * refuses unless told (docs/configuration.md, least privilege): there it is told, and says so at every start.
 */
export function clusterInstanceEnv(
  settings: ClusterSettings,
  secrets: SharedSecrets,
): Record<string, string> {
  const env: Record<string, string> = {
    DATABASE_URL: settings.databaseUrl,
    REDIS_URL: settings.redisUrl,
    REDIS_KEY_PREFIX: settings.redisKeyPrefix,
    TRUSTED_PROXIES: settings.proxySource,
    NEXTAUTH_SECRET: secrets.NEXTAUTH_SECRET,
  };
  if (settings.authMode) env.AUTH_MODE = settings.authMode;
  if (settings.ownDatabase) env.DB_ALLOW_PRIVILEGED_ROLE = "on";
  return env;
}
