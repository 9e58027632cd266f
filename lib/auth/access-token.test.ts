import { decodeJwt, SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { ApiError } from "@/lib/http/problem";
import { issueAccessToken } from "./access-token.ts";
import { authenticateApiRequest } from "./api-auth.ts";

const SECRET = "test-secret-that-is-long-enough-for-hs256";
const saved = { ...process.env };

// The session the tokens below are issued for: the API requires X-Session-ID to equal their `sid`.
function headers(token: string, sessionId = "sid-123"): Headers {
  return new Headers({ Authorization: `Bearer ${token}`, "X-Session-ID": sessionId });
}

function useEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}

const subject = { userId: "demo-admin", name: "Alex Admin", role: "admin" as const, sessionId: "sid-123" };

describe("app-issued access tokens", () => {
  beforeEach(() => {
    useEnv({
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: SECRET,
      AUTH_JWKS_URL: undefined,
      AUTH_JWT_ISSUER: undefined,
      AUTH_JWT_AUDIENCE: undefined,
      AUTH_JWT_ALGORITHMS: undefined,
      AUTH_ACCESS_TOKEN_TTL: undefined,
    });
  });
  afterEach(() => {
    process.env = { ...saved };
    resetEnvCache();
  });

  it("are short-lived JWTs naming the user, role and session", async () => {
    const now = Date.UTC(2026, 10, 20, 12, 0, 0);
    const { token, expiresAt } = await issueAccessToken(subject, now);
    const claims = decodeJwt(token);
    expect(claims).toMatchObject({ sub: "demo-admin", role: "admin", sid: "sid-123", name: "Alex Admin" });
    expect(claims.iat).toBe(now / 1000);
    expect(claims.exp).toBe(now / 1000 + 300);
    expect(expiresAt).toBe(claims.exp);
    expect(typeof claims.jti).toBe("string");
  });

  it("are accepted by the API in AUTH_MODE=jwt like any caller's token", async () => {
    const { token } = await issueAccessToken(subject);
    const principal = await authenticateApiRequest(headers(token));
    expect(principal).toMatchObject({ mode: "jwt", subject: "demo-admin", sessionId: "sid-123" });
  });

  it("carry the configured issuer and audience, which the API checks", async () => {
    useEnv({ AUTH_JWT_ISSUER: "https://back-office.example", AUTH_JWT_AUDIENCE: "player-read-api" });
    const { token } = await issueAccessToken(subject);
    expect(decodeJwt(token)).toMatchObject({ iss: "https://back-office.example", aud: "player-read-api" });
    await expect(authenticateApiRequest(headers(token))).resolves.toMatchObject({ subject: "demo-admin" });
    useEnv({ AUTH_JWT_AUDIENCE: "another-api" });
    await expect(authenticateApiRequest(headers(token))).rejects.toBeInstanceOf(ApiError);
  });

  it("are rejected when tampered with, expired or signed with another key", async () => {
    const { token } = await issueAccessToken(subject);
    const [h, , s] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), role: "x", sub: "someone-else" }),
    ).toString("base64url");
    await expect(authenticateApiRequest(headers(`${h}.${forged}.${s}`))).rejects.toMatchObject({
      status: 401,
    });

    const old = await issueAccessToken(subject, Date.now() - 3_600_000);
    await expect(authenticateApiRequest(headers(old.token))).rejects.toMatchObject({
      status: 401,
      detail: "The access token has expired.",
    });

    const other = await new SignJWT({})
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("demo-admin")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("some-other-secret-of-sufficient-length"));
    await expect(authenticateApiRequest(headers(other))).rejects.toMatchObject({ status: 401 });
  });

  it("verify with the shared secret even when a JWKS URL serves the identity provider's tokens", async () => {
    // The JWKS URL is unreachable: an HS256 token must never need it.
    useEnv({
      AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      AUTH_JWT_AUDIENCE: "player-read-api",
    });
    const { token } = await issueAccessToken(subject);
    await expect(authenticateApiRequest(headers(token))).resolves.toMatchObject({ subject: "demo-admin" });
  });

  it("are good for their own session only: another X-Session-ID is a 401 naming it", async () => {
    const { token } = await issueAccessToken(subject);
    await expect(authenticateApiRequest(headers(token, "another-session"))).rejects.toMatchObject({
      status: 401,
      errors: [{ name: "X-Session-ID", in: "header", detail: "must equal the token's `sid` claim" }],
    });
  });

  it("are bound to their session in demo mode too, when the API can verify them", async () => {
    useEnv({ AUTH_MODE: "demo" });
    const { token } = await issueAccessToken(subject);
    await expect(authenticateApiRequest(headers(token))).resolves.toMatchObject({ verified: true });
    await expect(authenticateApiRequest(headers(token, "another-session"))).rejects.toMatchObject({
      status: 401,
      errors: [{ name: "X-Session-ID" }],
    });
  });

  it("are never signed with a derived key in AUTH_MODE=jwt without AUTH_JWT_SECRET", async () => {
    useEnv({
      AUTH_JWT_SECRET: undefined,
      AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      AUTH_JWT_AUDIENCE: "player-read-api",
      NEXTAUTH_SECRET: "session-secret-session-secret-session-secret",
    });
    await expect(issueAccessToken(subject)).rejects.toThrow(/without AUTH_JWT_SECRET/);
  });

  it("honour AUTH_ACCESS_TOKEN_TTL", async () => {
    useEnv({ AUTH_ACCESS_TOKEN_TTL: "60" });
    const { token } = await issueAccessToken(subject, 1_000_000_000_000);
    const claims = decodeJwt(token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(60);
  });
});
