import { z } from "zod";

// Validated once per process; every module reads configuration from here, never from process.env directly.
const envSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  AUTH_MODE: z.enum(["demo", "jwt"]).default("demo"),
  AUTH_JWT_SECRET: z.string().min(1).optional(),
  AUTH_JWKS_URL: z.url().optional(),
  AUTH_JWT_ISSUER: z.string().min(1).optional(),
  AUTH_JWT_AUDIENCE: z.string().min(1).optional(),
  AUTH_JWT_ALGORITHMS: z.string().optional(),
  // Back-office sign-in (next-auth). Secrets default to generated ones (see lib/auth/secrets.ts).
  NEXTAUTH_SECRET: z.string().min(1).optional(),
  AUTH_SECRET: z.string().min(1).optional(),
  OIDC_ISSUER: z.url().optional(),
  OIDC_CLIENT_ID: z.string().min(1).optional(),
  OIDC_CLIENT_SECRET: z.string().min(1).optional(),
  OIDC_NAME: z.string().min(1).default("Single sign-on"),
  AUTH_DEMO_USERS: z.enum(["on", "off"]).optional(),
  AUTH_ACCESS_TOKEN_TTL: z.coerce.number().int().min(30).max(3600).default(300),
  DB_POOL_SIZE: z.coerce.number().int().min(1).max(100).default(10),
  LOG_LEVEL: z.enum(["debug", "info", "warn", "error", "silent"]).default("info"),
});

export type Env = z.infer<typeof envSchema>;

let cached: Env | undefined;

export function getEnv(): Env {
  if (!cached) {
    const parsed = envSchema.safeParse(process.env);
    if (!parsed.success) {
      const fields = parsed.error.issues.map((i) => i.path.join(".")).join(", ");
      throw new Error(`Invalid environment configuration: ${fields}`);
    }
    cached = parsed.data;
  }
  return cached;
}

/** Tests change the environment between cases; they call this to re-read it. */
export function resetEnvCache(): void {
  cached = undefined;
}
