import { describe, expect, it } from "vitest";
import { parseRolesEnv, rolesRecipeSql } from "./db-roles-recipe.ts";

/* The settings of `npm run db:roles`: names and passwords end up in SQL, so anything odd is refused. */
const admin = { DATABASE_ADMIN_URL: "postgresql://postgres@127.0.0.1/players" };
const parse = (env: Record<string, string>) => parseRolesEnv({ ...admin, ...env }, { needsAdminUrl: true });

describe("db:roles settings", () => {
  it("defaults to par_owner and par_app, passwords left as they are", () => {
    expect(parse({})).toEqual({
      adminUrl: admin.DATABASE_ADMIN_URL,
      ownerRole: "par_owner",
      appRole: "par_app",
      ownerPassword: undefined,
      appPassword: undefined,
    });
  });

  it.each([
    ['x"; DROP ROLE postgres; --'],
    ["x' OR '1'='1"],
    ["Owner"],
    ["pg_owner"],
    ["1owner"],
    ["a".repeat(64)],
    ["owner$$"],
    [""],
  ])("refuses the role name %j, naming the variable", (name) => {
    expect(() => parse({ DB_APP_ROLE: name })).toThrow(/DB_APP_ROLE: must be a lower-case SQL name/);
  });

  it("refuses one role for both, short or non-ASCII passwords, and no admin URL", () => {
    expect(() => parse({ DB_OWNER_ROLE: "same", DB_APP_ROLE: "same" })).toThrow(/DB_APP_ROLE: must differ/);
    expect(() => parse({ DB_APP_PASSWORD: "short" })).toThrow(/DB_APP_PASSWORD: must be at least 16/);
    expect(() => parse({ DB_OWNER_PASSWORD: "pässwörd-pässwörd-pässwörd" })).toThrow(/DB_OWNER_PASSWORD/);
    expect(() => parseRolesEnv({}, { needsAdminUrl: true })).toThrow(/DATABASE_ADMIN_URL: is required/);
    expect(parseRolesEnv({}, { needsAdminUrl: false }).appRole).toBe("par_app");
  });

  it("writes no password in clear, only SCRAM verifiers", () => {
    const secret = "a-password-that-must-not-leak-42";
    const sql = rolesRecipeSql(parse({ DB_APP_PASSWORD: secret }));
    expect(sql).not.toContain(secret);
    expect(sql).toMatch(/ALTER ROLE "par_app" WITH PASSWORD 'SCRAM-SHA-256\$4096:[^']+';/);
    expect(sql).not.toMatch(/ALTER ROLE "par_owner" WITH PASSWORD/);
  });
});
