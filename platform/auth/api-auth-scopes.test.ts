import { SignJWT } from "jose";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { ApiError } from "@/platform/problems/problem";
import { authenticated } from "@/test/support/authenticate";
import { restoreEnv, stubEnv } from "@/test/support/env";

const SECRET = "unit-test-secret-unit-test-secret!";

const UNSET = ["DATABASE_URL", "AUTH_MODE", "AUTH_JWT_SECRET", "AUTH_JWKS_URL", "AUTH_JWT_ISSUER"];

/** The variables authentication reads, cleared, then `vars`. */
function setEnv(vars: Record<string, string | undefined>) {
  stubEnv({ ...Object.fromEntries(UNSET.map((name) => [name, undefined])), ...vars });
}

async function token(claims: Record<string, unknown>, secret = SECRET, exp = "5m") {
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "HS256" })
    .setSubject(String(claims.sub ?? "user-1"))
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode(secret));
}

const headers = (t: string) => new Headers({ authorization: `Bearer ${t}`, "x-session-id": "sess-1" });

beforeEach(() => setEnv({}));
afterEach(restoreEnv);

describe("demo mode", () => {
  it("accepts any token as the spec's demo caller: read and PII, not the audit trail", async () => {
    const p = await authenticated(headers("anything-at-all"));
    expect(p).toMatchObject({ subject: "demo", mode: "demo", verified: false });
    expect(p.scopes).toEqual(["players:read", "players:pii"]);
  });

  it("reads an app-issued JWT by its claims when a secret is configured", async () => {
    setEnv({ AUTH_JWT_SECRET: SECRET });
    const agent = await authenticated(headers(await token({ sub: "agent7", roles: ["support_agent"] })));
    expect(agent).toMatchObject({ subject: "agent7", verified: true, scopes: ["players:read"] });
    const admin = await authenticated(headers(await token({ sub: "root", roles: "admin" })));
    expect(admin.scopes).toContain("audit:read");
  });

  it("treats a JWT that does not verify like any other demo token (no claims are trusted)", async () => {
    setEnv({ AUTH_JWT_SECRET: SECRET });
    const forged = await token({ sub: "root", roles: ["admin"] }, "some-other-secret-some-other-secret");
    const p = await authenticated(headers(forged));
    expect(p).toMatchObject({ subject: "demo", verified: false });
    expect(p.scopes).not.toContain("audit:read");
  });
});

describe("jwt mode", () => {
  beforeEach(() => setEnv({ AUTH_MODE: "jwt", AUTH_JWT_SECRET: SECRET }));

  it("grants exactly the token's scopes and roles", async () => {
    const p = await authenticated(headers(await token({ scope: "players:read" })));
    expect(p).toMatchObject({ mode: "jwt", verified: true, scopes: ["players:read"] });
    const none = await authenticated(headers(await token({})));
    expect(none.scopes).toEqual([]);
  });

  it("rejects expired and foreign tokens with 401", async () => {
    const expired = await token({ scope: "players:read" }, SECRET, "-1m");
    await expect(authenticated(headers(expired))).rejects.toMatchObject({ status: 401 });
    const foreign = await token({ scope: "players:read" }, "another-secret-another-secret-xx");
    const error = await authenticated(headers(foreign)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).headers["WWW-Authenticate"]).toContain('error="invalid_token"');
  });
});
