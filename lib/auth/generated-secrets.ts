import { randomBytes } from "node:crypto";
import { chmod, mkdir, readFile, writeFile } from "node:fs/promises";
import path from "node:path";

export const GENERATED_SECRET_NAMES = ["NEXTAUTH_SECRET", "AUTH_JWT_SECRET"] as const;
export const DEFAULT_SECRETS_FILE = ".data/auth-secrets.json";

/**
 * The quick start must work with no configuration: secrets that are not set in the environment are
 * taken from a file (created on first start with random values, readable by the owner only), so
 * sign-ins survive restarts. Production deployments set them explicitly. Returns the names filled in.
 */
export async function fillGeneratedSecrets(
  env: Record<string, string | undefined>,
  file: string = DEFAULT_SECRETS_FILE,
): Promise<string[]> {
  const missing = GENERATED_SECRET_NAMES.filter((name) => !env[name]);
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
