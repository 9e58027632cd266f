import { UnsecuredJWT } from "jose";
import { afterEach, describe, expect, it } from "vitest";
import { restoreEnv, stubEnv } from "@/test/support/env";
import { authProviderSettings, buildAuthOptions, demoUsersWarning } from "./auth-options.ts";
import { safeCallbackPath } from "./paths.ts";
import { profileClaims, roleFromClaims, userFromProfile } from "./profile-claims.ts";

afterEach(restoreEnv);

const OIDC = {
  OIDC_ISSUER: "https://id.example.com/realms/back-office",
  OIDC_CLIENT_ID: "player-accounts",
  OIDC_CLIENT_SECRET: "s3cret",
};

describe("sign-in methods", () => {
  it("offers the demo users in demo mode when no identity provider is configured", () => {
    stubEnv({ AUTH_MODE: "demo", OIDC_ISSUER: undefined, AUTH_DEMO_USERS: undefined });
    expect(authProviderSettings()).toEqual({ demoUsers: true, oidc: null });
    expect(buildAuthOptions().providers.map((p) => p.id)).toEqual(["credentials"]);
    expect(demoUsersWarning()).toBeNull();
  });

  it("never offers the demo users outside demo mode unless explicitly turned on, and then warns", () => {
    stubEnv({
      DATABASE_URL: "postgresql://db.invalid/x",
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: "x".repeat(32),
      // On the operator's database the session secret must be set (platform/auth/secrets.ts).
      NEXTAUTH_SECRET: "n".repeat(32),
      OIDC_ISSUER: undefined,
      AUTH_DEMO_USERS: undefined,
    });
    expect(authProviderSettings()).toEqual({ demoUsers: false, oidc: null });
    expect(buildAuthOptions().providers).toEqual([]);
    expect(demoUsersWarning()).toBeNull();
    stubEnv({ AUTH_DEMO_USERS: "on" });
    expect(authProviderSettings().demoUsers).toBe(true);
    expect(demoUsersWarning()).toMatch(/AUTH_DEMO_USERS=on with AUTH_MODE=jwt/);
  });

  it("offers OIDC alone when configured, and the demo users only if turned on", () => {
    stubEnv({ ...OIDC, AUTH_MODE: "demo", AUTH_DEMO_USERS: undefined, OIDC_NAME: "Company SSO" });
    expect(authProviderSettings()).toEqual({ demoUsers: false, oidc: { name: "Company SSO" } });
    const [oidc] = buildAuthOptions().providers as unknown as { id: string; wellKnown: string }[];
    expect(oidc).toMatchObject({
      id: "oidc",
      wellKnown: "https://id.example.com/realms/back-office/.well-known/openid-configuration",
    });
    stubEnv({ AUTH_DEMO_USERS: "on" });
    expect(buildAuthOptions().providers.map((p) => p.id)).toEqual(["oidc", "credentials"]);
  });

  it("can turn the demo users off", () => {
    stubEnv({ AUTH_MODE: "demo", OIDC_ISSUER: undefined, AUTH_DEMO_USERS: "off" });
    expect(authProviderSettings().demoUsers).toBe(false);
  });

  it("reads a known role from the identity provider's claims", () => {
    expect(roleFromClaims({ role: "admin" })).toBe("admin");
    expect(roleFromClaims({ roles: ["offline_access", "vip_manager"] })).toBe("vip_manager");
    expect(roleFromClaims({ groups: ["support_agent"] })).toBe("support_agent");
    expect(roleFromClaims({ role: "superuser", roles: "nobody" })).toBeNull();
    // The same mapping as the API's: space-separated strings, and the most privileged of several.
    expect(roleFromClaims({ roles: "offline_access admin" })).toBe("admin");
    expect(roleFromClaims({ groups: ["support_agent", "vip_manager"] })).toBe("vip_manager");
  });
});

describe("the identity provider's claims", () => {
  const idToken = (claims: Record<string, unknown>) =>
    new UnsecuredJWT(claims).setIssuer("https://id.example.com").setAudience("player-accounts").encode();
  const userinfoOf = (claims: Record<string, unknown>) => {
    const calls: string[] = [];
    const userinfo = async (token: unknown) => {
      calls.push(String(token));
      return claims;
    };
    return { calls, client: { userinfo } };
  };

  it("reads userinfo when the ID token carries only `sub`, and maps the role from it", async () => {
    const { calls, client } = userinfoOf({
      sub: "u1",
      name: "Dana Agent",
      email: "d@x.test",
      groups: ["admin"],
    });
    const claims = await profileClaims(
      { id_token: idToken({ sub: "u1" }), access_token: "at-1" },
      client as never,
    );
    expect(calls).toEqual(["at-1"]);
    expect(userFromProfile(claims)).toEqual({
      id: "u1",
      name: "Dana Agent",
      email: "d@x.test",
      role: "admin",
    });
  });

  it("does not ask userinfo when the ID token already has the claims", async () => {
    const { calls, client } = userinfoOf({ sub: "u1" });
    const full = { sub: "u1", name: "A", email: "a@x.test", role: "support_agent" };
    const claims = await profileClaims({ id_token: idToken(full), access_token: "at" }, client as never);
    expect(calls).toEqual([]);
    expect(userFromProfile(claims).role).toBe("support_agent");
  });

  it("refuses userinfo about another subject", async () => {
    const { client } = userinfoOf({ sub: "someone-else", role: "admin" });
    await expect(
      profileClaims({ id_token: idToken({ sub: "u1" }), access_token: "at" }, client as never),
    ).rejects.toThrow(/another subject/);
  });

  it("a user without a role claim has no role", () => {
    expect(userFromProfile({ sub: "u2", preferred_username: "nora" })).toEqual({
      id: "u2",
      name: "nora",
      email: null,
      role: null,
    });
  });
});

describe("safeCallbackPath", () => {
  it("follows only paths on this site", () => {
    expect(safeCallbackPath("/players/P000007?event_type=bet")).toBe("/players/P000007?event_type=bet");
    expect(safeCallbackPath("https://evil.example/")).toBe("/");
    expect(safeCallbackPath("//evil.example/")).toBe("/");
    expect(safeCallbackPath("/\\evil.example")).toBe("/");
    expect(safeCallbackPath("/sign-in?callbackUrl=/x")).toBe("/");
    expect(safeCallbackPath(undefined)).toBe("/");
  });
});
