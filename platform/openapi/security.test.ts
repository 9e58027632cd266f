import { describe, expect, it } from "vitest";
import { ALL_SCOPES } from "@/platform/auth/scopes";
import { buildOpenApiDocument } from "../../features/api-docs/document.ts";
import { oauthTokenUrl, securitySchemes } from "./security.ts";

describe("the OAuth 2.0 client-credentials scheme", () => {
  it("takes the token URL from OAUTH_TOKEN_URL, else the issuer's /token, else a .invalid placeholder", () => {
    expect(oauthTokenUrl({ OAUTH_TOKEN_URL: "https://id.example/oauth2/token", AUTH_JWT_ISSUER: "x" })).toBe(
      "https://id.example/oauth2/token",
    );
    expect(oauthTokenUrl({ AUTH_JWT_ISSUER: "http://127.0.0.1:3104/" })).toBe("http://127.0.0.1:3104/token");
    expect(oauthTokenUrl({ AUTH_JWT_ISSUER: "urn:not-a-url" })).toBe(
      "https://token-url-not-configured.invalid/token",
    );
    expect(oauthTokenUrl({})).toBe("https://token-url-not-configured.invalid/token");
  });

  it("declares every scope, and every operation accepts bearer or oauth2 with the same scope", () => {
    const { oauth2 } = securitySchemes({ AUTH_JWT_AUDIENCE: "api" });
    expect(Object.keys(oauth2.flows.clientCredentials.scopes)).toEqual([...ALL_SCOPES]);
    expect(oauth2.description).toContain("`api`");
    const doc = buildOpenApiDocument() as unknown as {
      paths: Record<string, Record<string, { security: Record<string, string[]>[] }>>;
    };
    for (const [path, item] of Object.entries(doc.paths)) {
      for (const op of Object.values(item)) {
        const [bearer, oauth] = op.security;
        expect(op.security, path).toHaveLength(2);
        expect(oauth?.oauth2, path).toEqual(bearer?.bearerAuth);
      }
    }
  });
});
