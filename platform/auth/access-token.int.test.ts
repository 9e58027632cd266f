import { decodeJwt, decodeProtectedHeader, SignJWT } from "jose";
import pg from "pg";
import { afterAll, afterEach, describe, expect, inject, it, vi } from "vitest";
import { ApiError } from "@/platform/problems/problem";
import { authenticated } from "@/test/support/authenticate";
import { stubEnv, stubEnvForEachTest } from "@/test/support/env";
import { closeApp } from "@/test/support/in-process-app";
import { issueAccessToken } from "./access-token.ts";
import type { Role } from "./roles.ts";
import { createSession, recordRoles, revokeSession } from "./session-store.ts";

/*
 * The tokens the back office mints for its signed-in users, from their server-side sign-in sessions (the table
 * auth_sessions on the test database), as the API verifies them.
 */
const SECRET = "test-secret-that-is-long-enough-for-hs256";
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });

function headers(token: string, sessionId: string): Headers {
  return new Headers({ Authorization: `Bearer ${token}`, "X-Session-ID": sessionId });
}

/** A signed-in user's session, as sign-in records it. */
const signIn = (role: Role | null = "admin", provider = "credentials", now?: number) =>
  createSession({ subject: "demo-admin", role, provider }, now);

/** The 401 the API answers with; fails the test when it accepts. */
async function refusal(token: string, sessionId: string): Promise<ApiError> {
  const error = await authenticated(headers(token, sessionId)).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected the token to be refused").toBeInstanceOf(ApiError);
  expect((error as ApiError).status).toBe(401);
  return error as ApiError;
}

afterAll(async () => {
  await closeApp();
  await sql.end();
});

stubEnvForEachTest({
  DATABASE_URL: inject("databaseUrl"),
  AUTH_MODE: "jwt",
  AUTH_JWT_SECRET: SECRET,
  AUTH_JWKS_URL: undefined,
  AUTH_JWT_ISSUER: undefined,
  AUTH_JWT_AUDIENCE: undefined,
  AUTH_JWT_ALGORITHMS: undefined,
  AUTH_ACCESS_TOKEN_TTL: undefined,
  AUTH_SESSION_MAX_AGE_SECONDS: undefined,
  AUTH_SESSION_CACHE_SECONDS: undefined,
  AUTH_ROLE_RECHECK_SECONDS: undefined,
  NEXTAUTH_SECRET: "access-token-test-session-secret-0123456789",
  LOG_LEVEL: "silent",
});
afterEach(() => {
  vi.useRealTimers();
});

describe("app-issued access tokens", () => {
  it("are short-lived RFC 9068 tokens naming the session's user, role and id", async () => {
    const now = Date.now();
    const session = await signIn("admin");
    const { token, expiresAt } = await issueAccessToken({ sessionId: session.id, name: "Alex Admin" }, now);
    const claims = decodeJwt(token);
    expect(decodeProtectedHeader(token)).toEqual({ alg: "HS256", typ: "at+jwt" });
    expect(claims).toMatchObject({
      sub: "demo-admin",
      role: "admin",
      scope: "players:read players:pii audit:read transactions:bulk",
      sid: session.id,
      name: "Alex Admin",
      client_id: "player-account-back-office",
    });
    expect(claims.iat).toBe(Math.floor(now / 1000));
    expect(claims.exp).toBe(Math.floor(now / 1000) + 300);
    expect(expiresAt).toBe(claims.exp);
    expect(typeof claims.jti).toBe("string");
  });

  it("are accepted by the API in AUTH_MODE=jwt like any caller's token, for their own session only", async () => {
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toMatchObject({
      mode: "jwt",
      subject: "demo-admin",
      sessionId: session.id,
    });
    const other = await refusal(token, "another-session");
    expect(other.errors).toEqual([
      { name: "X-Session-ID", in: "header", detail: "must equal the token's `sid` claim" },
    ]);
  });

  it("carry the configured issuer and audience, which the API checks", async () => {
    stubEnv({ AUTH_JWT_ISSUER: "https://back-office.example", AUTH_JWT_AUDIENCE: "player-read-api" });
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    expect(decodeJwt(token)).toMatchObject({ iss: "https://back-office.example", aud: "player-read-api" });
    await expect(authenticated(headers(token, session.id))).resolves.toMatchObject({
      subject: "demo-admin",
    });
    stubEnv({ AUTH_JWT_AUDIENCE: "another-api" });
    await refusal(token, session.id);
  });

  it("are rejected when tampered with, expired or signed with another key", async () => {
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    const [h, , s] = token.split(".");
    const forged = Buffer.from(
      JSON.stringify({ ...decodeJwt(token), role: "x", sub: "someone-else" }),
    ).toString("base64url");
    await refusal(`${h}.${forged}.${s}`, session.id);
    const old = await issueAccessToken({ sessionId: session.id }, Date.now() - 3_600_000);
    expect((await refusal(old.token, session.id)).detail).toBe("The access token has expired.");
    const other = await new SignJWT({ sid: session.id, client_id: "player-account-back-office" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("demo-admin")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode("some-other-secret-of-sufficient-length"));
    await refusal(other, session.id);
  });

  it("verify with the shared secret even when a JWKS URL serves the identity provider's tokens", async () => {
    // The JWKS URL is unreachable: an HS256 token must never need it.
    stubEnv({
      AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      AUTH_JWT_AUDIENCE: "player-read-api",
    });
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toMatchObject({
      subject: "demo-admin",
    });
  });

  it("are bound to their session in demo mode too, when the API can verify them", async () => {
    stubEnv({ AUTH_MODE: "demo" });
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toMatchObject({
      verified: true,
    });
    await expect(authenticated(headers(token, "another-session"))).rejects.toMatchObject({
      status: 401,
      errors: [{ name: "X-Session-ID" }],
    });
    await revokeSession(session.id, "sign-out");
    await expect(authenticated(headers(token, session.id))).rejects.toMatchObject({ status: 401 });
  });

  it("are never signed with a derived key in AUTH_MODE=jwt without AUTH_JWT_SECRET", async () => {
    const session = await signIn();
    stubEnv({
      AUTH_JWT_SECRET: undefined,
      AUTH_JWKS_URL: "http://127.0.0.1:9/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      AUTH_JWT_AUDIENCE: "player-read-api",
      NEXTAUTH_SECRET: "session-secret-session-secret-session-secret",
    });
    await expect(issueAccessToken({ sessionId: session.id })).rejects.toThrow(/without AUTH_JWT_SECRET/);
  });

  it("honour AUTH_ACCESS_TOKEN_TTL", async () => {
    stubEnv({ AUTH_ACCESS_TOKEN_TTL: "60" });
    const session = await signIn();
    const claims = decodeJwt((await issueAccessToken({ sessionId: session.id })).token);
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBe(60);
  });
});

describe("app-issued access tokens live no longer than their sign-in session", () => {
  it("expire with the session at the latest, and none is minted from an ended session", async () => {
    stubEnv({ AUTH_SESSION_MAX_AGE_SECONDS: "60" });
    const started = Date.now();
    const session = await signIn("admin", "credentials", started);
    const late = await issueAccessToken({ sessionId: session.id }, started + 30_000);
    expect(late.expiresAt).toBe(Math.floor(session.expiresAt / 1000));
    await expect(issueAccessToken({ sessionId: session.id }, started + 60_000)).rejects.toMatchObject({
      status: 401,
      detail: "The sign-in session has ended; sign in again.",
    });
    await revokeSession(session.id, "sign-out");
    await expect(issueAccessToken({ sessionId: session.id })).rejects.toMatchObject({ status: 401 });
    await expect(issueAccessToken({ sessionId: "no-such-session" })).rejects.toMatchObject({ status: 401 });
  });

  it("a token minted before sign-out is refused after it, at once in this process", async () => {
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toBeTruthy();
    await revokeSession(session.id, "sign-out");
    const problem = await refusal(token, session.id);
    expect(problem.detail).toBe("The sign-in session this token was issued for has ended; sign in again.");
    expect(problem.errors).toEqual([{ name: "Authorization", in: "header", detail: "token rejected" }]);
    expect(problem.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
  });

  it("a sign-out in another process is seen within AUTH_SESSION_CACHE_SECONDS (5 s)", async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toBeTruthy();
    // Another instance signs the user out: only the table changes.
    await sql.query("UPDATE auth_sessions SET revoked_at = now() WHERE id = $1", [session.id]);
    vi.setSystemTime(start + 4_900);
    await expect(authenticated(headers(token, session.id))).resolves.toBeTruthy();
    vi.setSystemTime(start + 5_001);
    await refusal(token, session.id);
  });

  it("with AUTH_SESSION_CACHE_SECONDS=0 every check reads the table", async () => {
    stubEnv({ AUTH_SESSION_CACHE_SECONDS: "0" });
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    await expect(authenticated(headers(token, session.id))).resolves.toBeTruthy();
    await sql.query("UPDATE auth_sessions SET revoked_at = now() WHERE id = $1", [session.id]);
    await refusal(token, session.id);
  });

  it("a token is refused past the session's absolute expiry, however often it was used", async () => {
    stubEnv({ AUTH_SESSION_MAX_AGE_SECONDS: "60", AUTH_ACCESS_TOKEN_TTL: "300" });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const session = await signIn();
    const { token } = await issueAccessToken({ sessionId: session.id });
    for (let t = 0; t < 60_000; t += 10_000) {
      vi.setSystemTime(start + t);
      await expect(authenticated(headers(token, session.id))).resolves.toBeTruthy();
    }
    vi.setSystemTime(start + 60_000);
    await refusal(token, session.id);
  });

  it("a token whose role the session no longer has is refused; a new one carries the new role", async () => {
    const session = await signIn("admin", "oidc");
    const { token } = await issueAccessToken({ sessionId: session.id });
    await recordRoles(session.id, "support_agent", {});
    const problem = await refusal(token, session.id);
    expect(problem.detail).toBe(
      "The user's roles have changed or are due to be read again; get a new access token.",
    );
    const renewed = await issueAccessToken({ sessionId: session.id });
    expect(decodeJwt(renewed.token)).toMatchObject({ role: "support_agent", scope: "players:read" });
    await expect(authenticated(headers(renewed.token, session.id))).resolves.toMatchObject({
      scopes: ["players:read"],
    });
  });

  it("a single sign-on session's tokens are refused once its roles are due to be read again", async () => {
    stubEnv({ AUTH_ROLE_RECHECK_SECONDS: "60" });
    const start = Date.now();
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(start);
    const sso = await signIn("admin", "oidc");
    const demo = await signIn("admin", "credentials");
    const ssoToken = (await issueAccessToken({ sessionId: sso.id })).token;
    const demoToken = (await issueAccessToken({ sessionId: demo.id })).token;
    vi.setSystemTime(start + 59_000);
    await expect(authenticated(headers(ssoToken, sso.id))).resolves.toBeTruthy();
    vi.setSystemTime(start + 60_000);
    await refusal(ssoToken, sso.id);
    // Demo accounts' roles come from this app, not from a provider: nothing to re-read.
    await expect(authenticated(headers(demoToken, demo.id))).resolves.toBeTruthy();
  });

  it("another caller's HS256 token naming a sid of its own is not checked against the sessions", async () => {
    const external = await new SignJWT({ sid: "their-own-session", scope: "players:read" })
      .setProtectedHeader({ alg: "HS256" })
      .setSubject("reporting-job")
      .setExpirationTime("5m")
      .sign(new TextEncoder().encode(SECRET));
    await expect(authenticated(headers(external, "their-own-session"))).resolves.toMatchObject({
      subject: "reporting-job",
    });
  });
});
