import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import { expect, test } from "@playwright/test";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import { DEFAULT_SECRETS_FILE, fillGeneratedSecrets } from "../../platform/auth/generated-secrets.ts";
import {
  type AppProcess,
  httpGet,
  isFailure,
  startApp,
  TEST_SESSION_SECRET,
} from "../../test/support/app-process.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";

/*
 * A JWKS-only deployment (DATABASE_URL + AUTH_MODE=jwt + AUTH_JWKS_URL, no AUTH_JWT_SECRET) started by the real
 * launcher, against a real key set served over loopback HTTP (jose fetches it). Its ports: E2E_JWT_PORT + 40 (the
 * app), + 41 (the identity provider's key set) and + 42 (a server that must refuse to start); clear of the OIDC
 * test's (E2E_OIDC_PORT, 3104–3105) and the trust tests' (E2E_POSTGRES_PORT + 8 to + 20).
 */
const DATABASE_URL = process.env.E2E_POSTGRES_URL;
test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");
test.describe.configure({ mode: "serial", timeout: 180_000 });

const JWT_PORT = Number(process.env.E2E_JWT_PORT ?? 3103);
const APP_PORT = JWT_PORT + 40;
const JWKS_PORT = JWT_PORT + 41;
const ISSUER = `http://127.0.0.1:${JWKS_PORT}`;
const AUDIENCE = "player-account-read-api";
const JWKS_ENV = {
  DATABASE_URL: DATABASE_URL as string,
  AUTH_MODE: "jwt",
  AUTH_JWKS_URL: `${ISSUER}/jwks.json`,
  AUTH_JWT_ISSUER: ISSUER,
  AUTH_JWT_AUDIENCE: AUDIENCE,
  LOG_LEVEL: "warn",
  RATE_LIMIT_MAX: "1000000",
};

let jwks: Server;
let app: AppProcess;
let signingKey: CryptoKey;

test.beforeAll(async () => {
  const pair = await generateKeyPair("RS256");
  signingKey = pair.privateKey;
  const jwk = { ...(await exportJWK(pair.publicKey)), kid: "idp-1", alg: "RS256", use: "sig" };
  jwks = createServer((req, res) => {
    if (req.url !== "/jwks.json") res.writeHead(404).end();
    else res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
  });
  await new Promise<void>((resolve) => jwks.listen(JWKS_PORT, "127.0.0.1", resolve));
  app = await startApp(APP_PORT, JWKS_ENV);
});

test.afterAll(async () => {
  await app?.stop();
  await new Promise<void>((resolve) => (jwks ? jwks.close(() => resolve()) : resolve()));
});

const now = () => Math.floor(Date.now() / 1000);
const idpToken = (aud: string) =>
  new SignJWT({ sub: "idp-user", scope: "players:read players:pii" })
    .setProtectedHeader({ alg: "RS256", kid: "idp-1" })
    .setIssuer(ISSUER)
    .setAudience(aud)
    .setIssuedAt()
    .setExpirationTime(now() + 300)
    .sign(signingKey);
const hsToken = (key: Uint8Array) =>
  new SignJWT({ sub: "intruder", role: "admin", scope: "players:read players:pii audit:read" })
    .setProtectedHeader({ alg: "HS256" })
    .setIssuer(ISSUER)
    .setAudience(AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(now() + 300)
    .sign(key);

async function get(token: string, path = `/api/v1/players/${FIXTURE_PLAYER_ID}`) {
  const res = await httpGet(`${app.url}${path}`, {
    Authorization: `Bearer ${token}`,
    "X-Session-ID": "jwks-e2e",
  });
  if (isFailure(res)) throw new Error(`request failed: ${res.error}`);
  return res;
}

test("a token the provider signed for this API is accepted; one it issued to another client is 401", async () => {
  expect((await get(await idpToken(AUDIENCE))).status).toBe(200);
  const other = await get(await idpToken("another-client"));
  expect(other.status).toBe(401);
  expect(other.headers["content-type"]).toBe("application/problem+json");
  expect(JSON.parse(other.body)).toMatchObject({ errors: [{ name: "Authorization" }] });
  expect(other.body).toMatch(/aud/);
});

test("no HS256 token is accepted: not with the quick start's generated secret, not with a derived one", async () => {
  // The secret the launcher used to put into every start's environment (.data/auth-secrets.json).
  const quickStart: Record<string, string | undefined> = {};
  await fillGeneratedSecrets(quickStart, DEFAULT_SECRETS_FILE);
  const stored = quickStart.AUTH_JWT_SECRET ?? "";
  expect(stored.length).toBeGreaterThanOrEqual(32);
  const derived = createHmac("sha256", TEST_SESSION_SECRET).update("api-access-token").digest();
  for (const key of [new TextEncoder().encode(stored), new Uint8Array(derived)]) {
    for (const path of [
      `/api/v1/players/${FIXTURE_PLAYER_ID}`,
      `/api/v1/players/${FIXTURE_PLAYER_ID}/audit`,
    ]) {
      const res = await get(await hsToken(key), path);
      expect(res.status, path).toBe(401);
      expect(res.headers["www-authenticate"]).toContain('error="invalid_token"');
    }
  }
});

test("the launcher refuses a JWKS without an audience, saying why", async () => {
  const { AUTH_JWT_AUDIENCE: _, ...withoutAudience } = JWKS_ENV;
  const refused = await startApp(JWT_PORT + 42, withoutAudience).then(
    async (started) => {
      await started.stop();
      return null;
    },
    (error: Error) => error.message,
  );
  expect(refused).toMatch(/AUTH_JWT_AUDIENCE: AUTH_JWKS_URL is set, so AUTH_JWT_AUDIENCE is required/);
});
