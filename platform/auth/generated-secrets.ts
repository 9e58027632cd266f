import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export const GENERATED_SECRET_NAMES = ["NEXTAUTH_SECRET", "AUTH_JWT_SECRET"] as const;
export type GeneratedSecretName = (typeof GENERATED_SECRET_NAMES)[number];
export const DEFAULT_SECRETS_FILE = ".data/auth-secrets.json";

/**
 * The secrets the launcher may generate for this (operator's) environment: none when the operator gave a
 * DATABASE_URL (a deployment sets its own, or the server refuses to start), and never AUTH_JWT_SECRET in
 * AUTH_MODE=jwt (HS tokens are then accepted only with a secret the operator chose).
 */
export function generatableSecrets(env: Record<string, string | undefined>): GeneratedSecretName[] {
  if (env.DATABASE_URL) return [];
  return GENERATED_SECRET_NAMES.filter((name) => name !== "AUTH_JWT_SECRET" || env.AUTH_MODE !== "jwt");
}

/**
 * The embedded quick start must work with no configuration: the secrets it may generate (see
 * generatableSecrets) that are not set are taken from a file (created on first start with random values,
 * readable by the owner only), so sign-ins survive restarts. Returns the names filled in.
 */
export async function fillGeneratedSecrets(
  env: Record<string, string | undefined>,
  file: string = DEFAULT_SECRETS_FILE,
): Promise<string[]> {
  const missing = generatableSecrets(env).filter((name) => !env[name]);
  if (missing.length === 0) return [];
  let stored: Record<string, unknown> = {};
  try {
    stored = JSON.parse(await readFile(file, "utf8")) as Record<string, unknown>;
  } catch {
    stored = {};
  }
  let changed = false;
  for (const name of missing) {
    const value = stored[name];
    if (typeof value === "string" && value.length >= 32) {
      env[name] = value;
    } else {
      env[name] = randomBytes(32).toString("base64url");
      stored[name] = env[name];
      changed = true;
    }
  }
  if (changed) {
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
    await chmod(file, 0o600);
  }
  return missing;
}
