import { describe, expect, it } from "vitest";
import { parseEnv } from "./env.ts";

describe("environment validation", () => {
  it("defaults to demo authentication only without a database URL (the embedded quick start)", () => {
    expect(parseEnv({}).AUTH_MODE).toBe("demo");
  });

  it("refuses a database URL without an explicit AUTH_MODE, saying why", () => {
    expect(() => parseEnv({ DATABASE_URL: "postgresql://db/players" })).toThrow(
      /AUTH_MODE must be chosen explicitly/,
    );
    expect(parseEnv({ DATABASE_URL: "postgresql://db/players", AUTH_MODE: "demo" }).AUTH_MODE).toBe("demo");
  });

  it("refuses jwt mode without a way to verify tokens", () => {
    expect(() => parseEnv({ AUTH_MODE: "jwt" })).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL/);
    expect(parseEnv({ AUTH_MODE: "jwt", AUTH_JWT_SECRET: "s" }).AUTH_MODE).toBe("jwt");
  });

  it("reads limits and timeouts, rejecting nonsense", () => {
    const env = parseEnv({
      RATE_LIMIT_MAX: "5",
      RATE_LIMIT_WINDOW_SECONDS: "2",
      DB_STATEMENT_TIMEOUT_MS: "800",
    });
    expect(env).toMatchObject({
      RATE_LIMIT_MAX: 5,
      RATE_LIMIT_WINDOW_SECONDS: 2,
      DB_STATEMENT_TIMEOUT_MS: 800,
    });
    expect(parseEnv({}).RATE_LIMIT_MAX).toBeGreaterThan(0);
    expect(() => parseEnv({ RATE_LIMIT_MAX: "-1" })).toThrow(/RATE_LIMIT_MAX/);
    expect(() => parseEnv({ DB_STATEMENT_TIMEOUT_MS: "soon" })).toThrow(/DB_STATEMENT_TIMEOUT_MS/);
  });
});
