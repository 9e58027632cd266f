import { afterEach, describe, expect, it } from "vitest";
import { resetEnvCache } from "@/lib/env";
import { authProviderSettings, buildAuthOptions, roleFromClaims } from "./auth-options.ts";
import { safeCallbackPath } from "./paths.ts";

const saved = { ...process.env };
function useEnv(vars: Record<string, string | undefined>) {
  for (const [k, v] of Object.entries(vars)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
  resetEnvCache();
}
afterEach(() => {
  process.env = { ...saved };
  resetEnvCache();
});

const OIDC = {
  OIDC_ISSUER: "https://id.example.com/realms/back-office",
  OIDC_CLIENT_ID: "player-accounts",
  OIDC_CLIENT_SECRET: "s3cret",
};

describe("sign-in methods", () => {
  it("offers the demo users when no identity provider is configured", () => {
    useEnv({ OIDC_ISSUER: undefined, AUTH_DEMO_USERS: undefined });
    expect(authProviderSettings()).toEqual({ demoUsers: true, oidc: null });
    expect(buildAuthOptions().providers.map((p) => p.id)).toEqual(["credentials"]);
  });

  it("offers OIDC alone when configured, and the demo users only if turned on", () => {
    useEnv({ ...OIDC, AUTH_DEMO_USERS: undefined, OIDC_NAME: "Company SSO" });
    expect(authProviderSettings()).toEqual({ demoUsers: false, oidc: { name: "Company SSO" } });
    const [oidc] = buildAuthOptions().providers as unknown as { id: string; wellKnown: string }[];
    expect(oidc).toMatchObject({
      id: "oidc",
      wellKnown: "https://id.example.com/realms/back-office/.well-known/openid-configuration",
    });
    useEnv({ AUTH_DEMO_USERS: "on" });
    expect(buildAuthOptions().providers.map((p) => p.id)).toEqual(["oidc", "credentials"]);
  });

  it("can turn the demo users off", () => {
    useEnv({ OIDC_ISSUER: undefined, AUTH_DEMO_USERS: "off" });
    expect(authProviderSettings().demoUsers).toBe(false);
  });

  it("reads a known role from the identity provider's claims", () => {
    expect(roleFromClaims({ role: "admin" })).toBe("admin");
    expect(roleFromClaims({ roles: ["offline_access", "vip_manager"] })).toBe("vip_manager");
    expect(roleFromClaims({ groups: ["support_agent"] })).toBe("support_agent");
    expect(roleFromClaims({ role: "superuser", roles: "admin" })).toBeNull();
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
