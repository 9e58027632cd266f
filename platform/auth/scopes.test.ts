import { describe, expect, it } from "vitest";
import { hasScope, rolesFromClaims, scopeClaimForRoles, scopesFromClaims } from "./scopes.ts";

describe("scopes from token claims", () => {
  it("maps each role to its scopes", () => {
    expect(scopesFromClaims({ roles: ["admin"] })).toEqual([
      "players:read",
      "players:pii",
      "audit:read",
      "transactions:bulk",
    ]);
    expect(scopesFromClaims({ roles: ["vip_manager"] })).toEqual(["players:read", "players:pii"]);
    expect(scopesFromClaims({ roles: ["support_agent"] })).toEqual(["players:read"]);
  });

  it("reads the OAuth-style space-separated scope claim and merges it with roles", () => {
    expect(scopesFromClaims({ scope: "audit:read  players:read" })).toEqual(["players:read", "audit:read"]);
    expect(scopesFromClaims({ scope: "players:pii", roles: "support_agent" })).toEqual([
      "players:read",
      "players:pii",
    ]);
    expect(scopesFromClaims({ role: "vip_manager" })).toEqual(["players:read", "players:pii"]);
    // A machine client that copies the ledger is granted the bulk read by its scope claim alone.
    expect(scopesFromClaims({ scope: "transactions:bulk", client_id: "ledger-copy" })).toEqual([
      "transactions:bulk",
    ]);
  });

  it("grants nothing for unknown, missing or malformed claims (least privilege)", () => {
    expect(scopesFromClaims({})).toEqual([]);
    expect(scopesFromClaims({ scope: "players:write admin", roles: ["superuser", 7, null] })).toEqual([]);
    expect(scopesFromClaims({ scope: 42, roles: { admin: true } })).toEqual([]);
    expect(rolesFromClaims({ roles: ["admin", "admin", "nobody"] })).toEqual(["admin"]);
  });

  it("reads roles from `groups` as sign-in does (an IdP's groups claim)", () => {
    expect(scopesFromClaims({ groups: ["admin"] })).toEqual([
      "players:read",
      "players:pii",
      "audit:read",
      "transactions:bulk",
    ]);
    expect(scopesFromClaims({ groups: "support_agent" })).toEqual(["players:read"]);
    expect(rolesFromClaims({ role: "support_agent", groups: ["vip_manager", "staff"] })).toEqual([
      "support_agent",
      "vip_manager",
    ]);
  });

  it("builds the scope claim the UI puts into the tokens it issues", () => {
    expect(scopeClaimForRoles(["support_agent"])).toBe("players:read");
    expect(scopeClaimForRoles(["vip_manager", "support_agent"])).toBe("players:read players:pii");
    const admin = scopeClaimForRoles(["admin"]);
    expect(hasScope({ scopes: scopesFromClaims({ scope: admin }) }, "audit:read")).toBe(true);
  });
});
