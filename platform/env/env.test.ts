import { describe, expect, it } from "vitest";
import { parseIngestConfig } from "../../workers/ingest/config.ts";
import { parseEnv } from "./env.ts";

const SECRET_32 = "0123456789abcdef0123456789abcdef";

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

  it("takes a standby's URL and a lag bound, refusing a standby without a primary or a bad bound", () => {
    const base = { DATABASE_URL: "postgresql://db/players", AUTH_MODE: "demo" };
    const env = parseEnv({ ...base, DATABASE_REPLICA_URL: "postgresql://standby/players" });
    expect(env.DATABASE_REPLICA_URL).toBe("postgresql://standby/players");
    expect(env.REPLICA_MAX_LAG_MS).toBe(2_000);
    expect(parseEnv({ ...base, REPLICA_MAX_LAG_MS: "500" }).REPLICA_MAX_LAG_MS).toBe(500);
    expect(() => parseEnv({ ...base, REPLICA_MAX_LAG_MS: "-1" })).toThrow(/REPLICA_MAX_LAG_MS/);
    expect(() => parseEnv({ ...base, DATABASE_REPLICA_URL: "mysql://standby/players" })).toThrow(
      /DATABASE_REPLICA_URL: must be a postgresql:\/\/ URL/,
    );
    expect(() => parseEnv({ DATABASE_REPLICA_URL: "postgresql://standby/players" })).toThrow(
      /DATABASE_REPLICA_URL: is a standby of DATABASE_URL's server/,
    );
  });

  it("reads per-client quotas and refuses a bad entry, naming RATE_LIMITS", () => {
    const env = parseEnv({ RATE_LIMITS: "client:crm-sync=50:1000,role:admin=5:100" });
    expect(env.RATE_LIMITS.get("client:crm-sync")).toEqual({
      name: "client:crm-sync",
      perSecond: 50,
      burst: 1000,
    });
    expect(parseEnv({}).RATE_LIMITS.size).toBe(0);
    expect(() => parseEnv({ RATE_LIMITS: "role:wizard=1:1" })).toThrow(
      /RATE_LIMITS: `role:wizard`: no such role/,
    );
  });

  it("reads which subjects are which VIP manager, refusing anything but a JSON object of names", () => {
    expect(
      parseEnv({ VIP_MANAGER_SUBJECTS: '{"00u8f3k2":" Sarah Mitchell "}' }).VIP_MANAGER_SUBJECTS,
    ).toEqual({
      "00u8f3k2": "Sarah Mitchell",
    });
    expect(parseEnv({}).VIP_MANAGER_SUBJECTS).toEqual({});
    for (const bad of [
      "Sarah Mitchell",
      "[]",
      '{"00u8f3k2":""}',
      '{"00u8f3k2":7}',
      '{"":"Sarah Mitchell"}',
    ]) {
      expect(() => parseEnv({ VIP_MANAGER_SUBJECTS: bad }), bad).toThrow(/VIP_MANAGER_SUBJECTS/);
    }
  });

  it("takes PUBLIC_ORIGIN and OAUTH_TOKEN_URL only as http(s) URLs, the origin without a path", () => {
    expect(parseEnv({ PUBLIC_ORIGIN: "https://players.example.com" }).PUBLIC_ORIGIN).toBe(
      "https://players.example.com",
    );
    expect(() => parseEnv({ PUBLIC_ORIGIN: "https://players.example.com/api" })).toThrow(
      /PUBLIC_ORIGIN: must be an origin only/,
    );
    expect(() => parseEnv({ PUBLIC_ORIGIN: "ftp://players.example.com" })).toThrow(/PUBLIC_ORIGIN/);
    expect(() => parseEnv({ OAUTH_TOKEN_URL: "not a url" })).toThrow(/OAUTH_TOKEN_URL/);
    expect(parseEnv({ OAUTH_TOKEN_URL: "https://id.example/oauth/token" }).OAUTH_TOKEN_URL).toBe(
      "https://id.example/oauth/token",
    );
  });

  it("validates the launcher's settings and the health check's NATS credentials with the rest, at start", () => {
    const env = parseEnv({ EMBEDDED_DB_DIR: "/tmp/pg", PORT: "3999", NATS_USER: "web", NATS_PASSWORD: "pw" });
    expect([env.EMBEDDED_DB_DIR, env.PORT, env.NATS_USER]).toEqual(["/tmp/pg", "3999", "web"]);
    expect(() => parseEnv({ PORT: "http" })).toThrow(/PORT: must be a port number/);
    expect(() => parseEnv({ NATS_USER: "web" })).toThrow(
      /NATS_PASSWORD: set NATS_USER and NATS_PASSWORD together/,
    );
    expect(() => parseEnv({ NATS_TOKEN: "t", NATS_CREDS: "/x.creds" })).toThrow(/NATS_CREDS: set one of/);
  });

  it("the consumer checks its NATS credentials and log level in its one schema too", () => {
    const base = { DATABASE_URL: "postgresql://db/players" };
    expect(parseIngestConfig(base)).toMatchObject({ NATS_ALLOW_ANONYMOUS: "off", LOG_LEVEL: "info" });
    expect(() => parseIngestConfig({ ...base, NATS_USER: "ingest" })).toThrow(/NATS_USER and NATS_PASSWORD/);
    expect(() => parseIngestConfig({ ...base, LOG_LEVEL: "loud" })).toThrow(/LOG_LEVEL/);
  });

  it("refuses jwt mode without a way to verify tokens", () => {
    expect(() => parseEnv({ AUTH_MODE: "jwt" })).toThrow(/AUTH_JWT_SECRET or AUTH_JWKS_URL/);
    expect(parseEnv({ AUTH_MODE: "jwt", AUTH_JWT_SECRET: SECRET_32 }).AUTH_MODE).toBe("jwt");
  });

  it("refuses an AUTH_JWT_SECRET shorter than 32 bytes, saying why", () => {
    expect(() => parseEnv({ AUTH_MODE: "jwt", AUTH_JWT_SECRET: SECRET_32.slice(1) })).toThrow(
      /AUTH_JWT_SECRET: must be at least 32 bytes \(an HMAC key shorter than its hash can be brute-forced/,
    );
    // Bytes, not characters: 16 two-byte characters are 32 bytes.
    expect(parseEnv({ AUTH_JWT_SECRET: "é".repeat(16) }).AUTH_JWT_SECRET).toBe("é".repeat(16));
    expect(() => parseEnv({ AUTH_JWT_SECRET: "é".repeat(15) })).toThrow(/AUTH_JWT_SECRET/);
  });

  it("refuses a JWKS without both issuer and audience", () => {
    const jwks = { AUTH_MODE: "jwt", AUTH_JWKS_URL: "https://id.example/jwks.json" };
    expect(() => parseEnv(jwks)).toThrow(
      /AUTH_JWT_ISSUER: AUTH_JWKS_URL is set[\s\S]*AUTH_JWT_AUDIENCE: AUTH_JWKS_URL/,
    );
    expect(() => parseEnv({ ...jwks, AUTH_JWT_ISSUER: "https://id.example" })).toThrow(
      /AUTH_JWT_AUDIENCE: AUTH_JWKS_URL is set, so AUTH_JWT_AUDIENCE is required/,
    );
    expect(() => parseEnv({ ...jwks, AUTH_JWT_AUDIENCE: "api" })).toThrow(/AUTH_JWT_ISSUER/);
    expect(
      parseEnv({ ...jwks, AUTH_JWT_ISSUER: "https://id.example", AUTH_JWT_AUDIENCE: "api" }).AUTH_MODE,
    ).toBe("jwt");
  });

  it("refuses jwt mode with sign-in but no AUTH_JWT_SECRET: the back office's tokens would all be refused", () => {
    const jwksOnly = {
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: "https://id.example/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      AUTH_JWT_AUDIENCE: "api",
    };
    expect(parseEnv(jwksOnly).AUTH_JWT_SECRET).toBeUndefined();
    for (const signIn of [{ OIDC_ISSUER: "https://id.example" }, { AUTH_DEMO_USERS: "on" }]) {
      expect(() => parseEnv({ ...jwksOnly, ...signIn })).toThrow(/AUTH_JWT_SECRET: sign-in is configured/);
      expect(parseEnv({ ...jwksOnly, ...signIn, AUTH_JWT_SECRET: SECRET_32 }).AUTH_MODE).toBe("jwt");
    }
  });

  it("takes LISTEN_HOST as an address or host name as Next.js listens on it, refusing anything else", () => {
    for (const host of ["0.0.0.0", "::", "::1", "192.0.2.7", "backoffice.lan"]) {
      expect(parseEnv({ LISTEN_HOST: host }).LISTEN_HOST).toBe(host);
    }
    for (const host of ["[::1]", "0.0.0.0:3000", "http://x", "a b"]) {
      expect(() => parseEnv({ LISTEN_HOST: host }), host).toThrow(/LISTEN_HOST: must be an IP address/);
    }
  });

  it("refuses an API audience equal to the OIDC client id: the back office's ID tokens would be API credentials", () => {
    const oidc = {
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: SECRET_32,
      AUTH_JWKS_URL: "https://id.example/jwks.json",
      AUTH_JWT_ISSUER: "https://id.example",
      OIDC_ISSUER: "https://id.example",
      OIDC_CLIENT_ID: "back-office",
      OIDC_CLIENT_SECRET: "client-secret",
    };
    expect(() => parseEnv({ ...oidc, AUTH_JWT_AUDIENCE: "back-office" })).toThrow(
      /AUTH_JWT_AUDIENCE: AUTH_JWT_AUDIENCE equals OIDC_CLIENT_ID: the API would accept the back office's ID tokens/,
    );
    expect(parseEnv({ ...oidc, AUTH_JWT_AUDIENCE: "player-account-read-api" }).AUTH_MODE).toBe("jwt");
  });

  it("bounds sessions: 12 h absolute, roles re-read every 15 min (at most hourly), 5 s session cache", () => {
    expect(parseEnv({})).toMatchObject({
      AUTH_SESSION_MAX_AGE_SECONDS: 43_200,
      AUTH_ROLE_RECHECK_SECONDS: 900,
      AUTH_SESSION_CACHE_SECONDS: 5,
      OIDC_SCOPE: "openid email profile",
    });
    expect(() => parseEnv({ AUTH_ROLE_RECHECK_SECONDS: "3601" })).toThrow(/AUTH_ROLE_RECHECK_SECONDS/);
    expect(() => parseEnv({ AUTH_SESSION_MAX_AGE_SECONDS: "0" })).toThrow(/AUTH_SESSION_MAX_AGE_SECONDS/);
    expect(() => parseEnv({ OIDC_SCOPE: "email profile" })).toThrow(/OIDC_SCOPE: must include `openid`/);
    expect(parseEnv({ OIDC_SCOPE: "openid offline_access" }).OIDC_SCOPE).toBe("openid offline_access");
  });

  it("bounds token lifetimes at 24 h unless configured", () => {
    expect(parseEnv({}).AUTH_MAX_TOKEN_LIFETIME_SECONDS).toBe(86_400);
    expect(parseEnv({ AUTH_MAX_TOKEN_LIFETIME_SECONDS: "3600" }).AUTH_MAX_TOKEN_LIFETIME_SECONDS).toBe(3600);
    expect(() => parseEnv({ AUTH_MAX_TOKEN_LIFETIME_SECONDS: "0" })).toThrow(
      /AUTH_MAX_TOKEN_LIFETIME_SECONDS/,
    );
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

  it("runs on a privileged database role only when told exactly `on`", () => {
    expect(parseEnv({}).DB_ALLOW_PRIVILEGED_ROLE).toBe("off");
    expect(parseEnv({ DB_ALLOW_PRIVILEGED_ROLE: "on" }).DB_ALLOW_PRIVILEGED_ROLE).toBe("on");
    for (const value of ["yes", "true", "1", "ON"]) {
      expect(() => parseEnv({ DB_ALLOW_PRIVILEGED_ROLE: value }), value).toThrow(/DB_ALLOW_PRIVILEGED_ROLE/);
    }
  });
});
