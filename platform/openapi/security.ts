import { SCOPE_DESCRIPTIONS, SCOPES } from "@/platform/auth/scopes";
import type { Env } from "@/platform/env/env";

/*
 * The document's security schemes: the bearer token every caller sends, and the OAuth 2.0 client-credentials
 * flow a machine client gets that token with (docs/integrations.md). Operations list both (operation-parts.ts'
 * `requires`): either grants the operation when its token carries the scope.
 */

/** Where a machine client asks for a token: OAUTH_TOKEN_URL, else `<issuer>/token`, else a placeholder. */
export function oauthTokenUrl(env: Pick<Env, "OAUTH_TOKEN_URL" | "AUTH_JWT_ISSUER">): string {
  if (env.OAUTH_TOKEN_URL) return env.OAUTH_TOKEN_URL;
  const issuer = env.AUTH_JWT_ISSUER;
  if (issuer && /^https?:\/\//.test(issuer)) return `${issuer.replace(/\/+$/, "")}/token`;
  return "https://token-url-not-configured.invalid/token";
}

export function securitySchemes(env: Pick<Env, "OAUTH_TOKEN_URL" | "AUTH_JWT_ISSUER" | "AUTH_JWT_AUDIENCE">) {
  const audience = env.AUTH_JWT_AUDIENCE
    ? `\`${env.AUTH_JWT_AUDIENCE}\``
    : "the configured AUTH_JWT_AUDIENCE";
  return {
    bearerAuth: {
      type: "http" as const,
      scheme: "bearer",
      bearerFormat: "JWT (AUTH_MODE=jwt) or any token (demo)",
      description: `Scopes (listed per operation): ${Object.values(SCOPES).join(", ")}. See the description above.`,
    },
    oauth2: {
      type: "oauth2" as const,
      description: `For machine clients: a token from the identity provider's token endpoint (grant \`client_credentials\`), sent as \`Authorization: Bearer\`. It must be a JWT signed by a key of AUTH_JWKS_URL, with the configured issuer, audience ${audience} and the scopes in its \`scope\` claim. See docs/integrations.md.`,
      flows: {
        clientCredentials: {
          tokenUrl: oauthTokenUrl(env),
          scopes: { ...SCOPE_DESCRIPTIONS },
        },
      },
    },
  };
}
