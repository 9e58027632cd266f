import { defineConfig, devices } from "@playwright/test";
import { OIDC_E2E } from "./e2e/oidc/oidc-config.ts";
import { DEMO_NOW_ISO } from "./scripts/demo-clock.mjs";
import { TEST_SESSION_SECRET } from "./test/support/app-process.ts";
import { CHROMIUM_FLAGS } from "./test/support/chromium-flags.ts";
import { E2E_JWT_SECRET } from "./test/support/e2e-auth.ts";
import { E2E_JWT } from "./test/support/jwt-config.ts";

/*
 * Two running copies of the production build: one on the embedded database, one on PostgreSQL.
 * scripts/test.sh builds once and prepares both databases; PLAYWRIGHT_TARGETS narrows the set.
 */
const EMBEDDED_PORT = Number(process.env.E2E_EMBEDDED_PORT ?? 3101);
const POSTGRES_PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3102);
const JWT_PORT = Number(process.env.E2E_JWT_PORT ?? 3103);
const targets = (process.env.PLAYWRIGHT_TARGETS ?? "embedded,postgres,jwt,oidc").split(",");
const postgresUrl = process.env.E2E_POSTGRES_URL;
const chromium = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

const launchOptions = {
  executablePath: chromium,
  args: [...CHROMIUM_FLAGS, "--disable-quic"],
};

const servers = [];
const projects = [];

// Shared by the two servers: app-issued tokens verify (roles → scopes); the functional suites send many
// requests from one address, so rate limiting is exercised by e2e/trust on servers of its own instead.
// A server on an operator's database (DATABASE_URL) gets no generated secrets: the session secret is explicit.
const trustEnv = { AUTH_JWT_SECRET: E2E_JWT_SECRET, RATE_LIMIT_MAX: "1000000" };
const sessionEnv = { NEXTAUTH_SECRET: TEST_SESSION_SECRET };
// The test database's URL is postgres, a superuser: `next start` refuses it unless told (platform/db/database-role.ts).
const privilegedRoleEnv = { DB_ALLOW_PRIVILEGED_ROLE: "on" };

if (targets.includes("embedded")) {
  servers.push({
    // The specs' data (test/support/e2e-data.ts): present even when a spec runs without scripts/test.sh.
    command: `node --import tsx test/support/e2e-data.ts embedded .data/e2e-pglite && node scripts/serve.mjs start --port ${EMBEDDED_PORT}`,
    url: `http://127.0.0.1:${EMBEDDED_PORT}/api/health`,
    timeout: 240_000,
    reuseExistingServer: false,
    env: { EMBEDDED_DB_DIR: ".data/e2e-pglite", AUTH_MODE: "demo", LOG_LEVEL: "warn", ...trustEnv },
  });
  projects.push(
    { name: "api-embedded", testDir: "e2e/api", use: { baseURL: `http://127.0.0.1:${EMBEDDED_PORT}` } },
    {
      name: "ui",
      testDir: "e2e/ui",
      // Pages wait on several API calls; on a busy two-core machine that can take more than the default 5 s.
      expect: { timeout: 30_000 },
      timeout: 90_000,
      use: { ...devices["Desktop Chrome"], baseURL: `http://127.0.0.1:${EMBEDDED_PORT}`, launchOptions },
    },
  );
}
if (targets.includes("postgres") && postgresUrl) {
  servers.push({
    command: `node --import tsx test/support/e2e-data.ts postgres && node scripts/serve.mjs start --port ${POSTGRES_PORT}`,
    url: `http://127.0.0.1:${POSTGRES_PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      DATABASE_URL: postgresUrl,
      AUTH_MODE: "demo",
      LOG_LEVEL: "warn",
      // The demo data's "now", as the embedded launcher sets it (scripts/demo-clock.mjs).
      PORTFOLIO_AS_OF: DEMO_NOW_ISO,
      ...trustEnv,
      ...sessionEnv,
      ...privilegedRoleEnv,
    },
  });
  projects.push({
    name: "api-postgres",
    testDir: "e2e/api",
    use: { baseURL: `http://127.0.0.1:${POSTGRES_PORT}` },
  });
}

// A third copy on the PostgreSQL database with AUTH_MODE=jwt: the token checks over HTTP.
if (targets.includes("jwt") && postgresUrl) {
  servers.push({
    command: `node scripts/serve.mjs start --port ${JWT_PORT}`,
    url: `http://127.0.0.1:${JWT_PORT}/api/health`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      DATABASE_URL: postgresUrl,
      AUTH_MODE: "jwt",
      AUTH_JWT_SECRET: E2E_JWT.secret,
      AUTH_JWT_ISSUER: E2E_JWT.issuer,
      AUTH_JWT_AUDIENCE: E2E_JWT.audience,
      LOG_LEVEL: "warn",
      RATE_LIMIT_MAX: "1000000",
      PORTFOLIO_AS_OF: DEMO_NOW_ISO,
      ...sessionEnv,
      ...privilegedRoleEnv,
    },
  });
  projects.push({
    name: "api-jwt",
    testDir: "e2e/api-jwt",
    use: { baseURL: `http://127.0.0.1:${JWT_PORT}` },
  });
}
// Sign-in through a real OpenID provider (oidc-provider on loopback) to an AUTH_MODE=jwt copy on PostgreSQL,
// which also has the demo accounts explicitly on and trusts 127.0.0.1 as a proxy, for the sign-in throttle tests.
if (targets.includes("oidc") && postgresUrl) {
  servers.push(
    {
      command: "node --import tsx e2e/oidc/provider.ts",
      url: `${OIDC_E2E.issuer}/.well-known/openid-configuration`,
      timeout: 60_000,
      reuseExistingServer: false,
    },
    {
      command: `node scripts/serve.mjs start --port ${OIDC_E2E.appPort}`,
      url: `${OIDC_E2E.appUrl}/api/health`,
      timeout: 120_000,
      reuseExistingServer: false,
      env: {
        DATABASE_URL: postgresUrl,
        AUTH_MODE: "jwt",
        NEXTAUTH_SECRET: "oidc-e2e-nextauth-secret-0123456789abcdef",
        NEXTAUTH_URL: OIDC_E2E.appUrl,
        AUTH_JWT_SECRET: OIDC_E2E.appJwtSecret,
        AUTH_JWKS_URL: `${OIDC_E2E.issuer}/jwks`,
        AUTH_JWT_ISSUER: OIDC_E2E.issuer,
        AUTH_JWT_AUDIENCE: OIDC_E2E.apiAudience,
        OIDC_ISSUER: OIDC_E2E.issuer,
        OIDC_CLIENT_ID: OIDC_E2E.backOffice.clientId,
        OIDC_CLIENT_SECRET: OIDC_E2E.backOffice.clientSecret,
        OIDC_NAME: OIDC_E2E.providerName,
        AUTH_ACCESS_CONTACT: OIDC_E2E.accessContact,
        AUTH_ROLE_RECHECK_SECONDS: String(OIDC_E2E.roleRecheckSeconds),
        AUTH_DEMO_USERS: "on",
        // The tests' own connections (127.0.0.1) stand for a proxy: they speak for clients by X-Forwarded-For.
        TRUSTED_PROXIES: "127.0.0.1",
        LOG_LEVEL: "warn",
        RATE_LIMIT_MAX: "1000000",
        ...privilegedRoleEnv,
      },
    },
  );
  projects.push({
    name: "oidc",
    testDir: "e2e/oidc",
    expect: { timeout: 30_000 },
    timeout: 120_000,
    use: { ...devices["Desktop Chrome"], baseURL: OIDC_E2E.appUrl, launchOptions },
  });
}
// Faults, shutdown, shared rate limits and a short soak: these start (and stop) servers and databases of
// their own (see e2e/trust/harness.ts), so they run once, not per target.
projects.push({ name: "trust", testDir: "e2e/trust", timeout: 240_000, workers: 1 });

export default defineConfig({
  fullyParallel: false,
  workers: 2,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  reporter: [["list"], ["html", { open: "never", outputFolder: "playwright-report" }]],
  outputDir: "test-results",
  use: { trace: "retain-on-failure", screenshot: "only-on-failure" },
  webServer: servers,
  projects,
});
