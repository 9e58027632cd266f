/*
 * The TypeScript half of `npm run dev` / `npm start` (scripts/serve.mjs runs it first, as a short-lived child):
 * refuses a configuration the server would refuse, fills in generated secrets, and prints the variables to add
 * to Next.js's environment as one JSON line. Nothing is started here.
 */
import { fillGeneratedSecrets } from "../platform/auth/generated-secrets.ts";
import { missingSessionSecret } from "../platform/auth/secrets.ts";
import { parseEnv } from "../platform/env/env.ts";

const env = { ...process.env };
// Refuse early, before starting anything (e.g. DATABASE_URL without an explicit AUTH_MODE: demo
// authentication must never be silent against a real database).
try {
  parseEnv(env);
} catch (error) {
  console.error((error as Error).message);
  process.exit(2);
}

const added: Record<string, string> = {};
// The embedded quick start (no DATABASE_URL) works with no configuration: missing secrets come from
// .data/auth-secrets.json (generated once). A deployment on the operator's database sets its own.
const generated = await fillGeneratedSecrets(env);
if (generated.length)
  console.error(`Using generated ${generated.join(" and ")} from .data/auth-secrets.json.`);
for (const name of generated) added[name] = env[name] ?? "";
const missing = missingSessionSecret(env);
if (missing) {
  console.error(`Invalid environment configuration:\n  - ${missing}`);
  process.exit(2);
}
// Without NEXTAUTH_URL, next-auth builds its URLs from the request's Host header (any port, any host name). It
// prefers X-Forwarded-Host, which the request stamp drops unless it came from a proxy TRUSTED_PROXIES names.
if (!env.NEXTAUTH_URL && !env.AUTH_TRUST_HOST) added.AUTH_TRUST_HOST = "true";
process.stdout.write(`${JSON.stringify(added)}\n`);
