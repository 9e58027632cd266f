import { createHmac } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWTPayload, SignJWT, UnsecuredJWT } from "jose";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { ApiError } from "@/platform/problems/problem";
import { authenticated } from "@/test/support/authenticate";
import { restoreEnv, stubEnv, stubEnvForEachTest } from "@/test/support/env";
import { authenticate, MAX_SESSION_ID_LENGTH } from "./api-auth.ts";

const SECRET = "unit-test-secret-of-sufficient-length-0123456789";
const ISSUER = "https://issuer.test";
const AUDIENCE = "player-account-read";

/** null leaves the header out. */
function headers(authorization: string | null, sessionId: string | null = "sess-1"): Headers {
  const h = new Headers();
  if (authorization !== null) h.set("Authorization", authorization);
  if (sessionId !== null) h.set("X-Session-ID", sessionId);
  return h;
}

/** The 401 problem that authentication throws; fails the test when it succeeds. */
async function rejection(h: Headers): Promise<ApiError> {
  const error = await authenticated(h).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected the request to be rejected").toBeInstanceOf(ApiError);
  const problem = error as ApiError;
  expect(problem.status).toBe(401);
  expect(problem.type).toMatch(/^https?:\/\/[^/]+\/problems\/unauthorized$/);
  expect(problem.headers["WWW-Authenticate"]).toMatch(/^Bearer realm="player-account-read"/);
  return problem;
}

/** The 400 naming X-Session-ID: the token was admitted, the session id is missing or unusable. */
async function sessionRefusal(h: Headers): Promise<ApiError> {
  const error = await authenticated(h).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, "expected the request to be refused").toBeInstanceOf(ApiError);
  const problem = error as ApiError;
  expect(problem.status).toBe(400);
  expect(problem.type).toMatch(/\/problems\/invalid-parameters$/);
  expect(problem.errors?.map((e) => e.name)).toEqual(["X-Session-ID"]);
  return problem;
}

const JWT_VARS = [
  "AUTH_JWT_SECRET",
  "AUTH_MAX_TOKEN_LIFETIME_SECONDS",
  "AUTH_JWKS_URL",
  "AUTH_JWT_ISSUER",
  "AUTH_JWT_AUDIENCE",
  "AUTH_JWT_ALGORITHMS",
] as const;
const cleared = Object.fromEntries(JWT_VARS.map((k) => [k, undefined]));

describe("demo mode", () => {
  stubEnvForEachTest({ ...cleared, AUTH_MODE: "demo" });

  it("accepts any non-empty bearer token with a session id", async () => {
    await expect(authenticated(headers("Bearer anything-at-all"))).resolves.toEqual({
      subject: "demo",
      sessionId: "sess-1",
      mode: "demo",
      claims: null,
      verified: false,
      scopes: ["players:read", "players:pii"],
      roles: [],
    });
  });

  it("reads the scheme case-insensitively and tolerates extra spaces", async () => {
    for (const value of ["bearer t", "BEARER t", "BeArEr t", "Bearer   t", "  Bearer t  "]) {
      await expect(authenticated(headers(value)), value).resolves.toMatchObject({ mode: "demo" });
    }
  });

  it("a missing Authorization header is a 401 naming it, without invalid_token", async () => {
    const problem = await rejection(headers(null));
    expect(problem.errors).toEqual([{ name: "Authorization", in: "header", detail: "is required" }]);
    expect(problem.headers["WWW-Authenticate"]).toBe('Bearer realm="player-account-read"');
    const blank = await rejection(headers("   "));
    expect(blank.errors?.[0]?.name).toBe("Authorization");
  });

  it("another scheme, an empty token or a token with spaces is a 401 invalid_token", async () => {
    for (const value of [
      "Basic dXNlcjpwYXNz",
      "Bearer",
      "Bearer ",
      "Token abc",
      "Bearerabc",
      "Bearer a b",
      "abc",
    ]) {
      const problem = await rejection(headers(value));
      expect(
        problem.errors?.map((e) => e.name),
        value,
      ).toEqual(["Authorization"]);
      expect(problem.headers["WWW-Authenticate"], value).toContain('error="invalid_token"');
    }
  });

  it("the session id is required, non-blank, printable ASCII and bounded: a 400 naming it", async () => {
    for (const value of [null, "", "   "]) {
      const problem = await sessionRefusal(headers("Bearer t", value));
      expect(problem.errors).toEqual([{ name: "X-Session-ID", in: "header", detail: "is required" }]);
      expect(problem.detail).toBe("Header 'X-Session-ID' is required.");
    }
    for (const value of ["x".repeat(MAX_SESSION_ID_LENGTH + 1), "a\tb", "sess-\u00e9"]) {
      await sessionRefusal(headers("Bearer t", value));
    }
    // Without a token at all it stays the 401 naming Authorization.
    expect((await rejection(headers(null, null))).errors?.map((e) => e.name)).toEqual(["Authorization"]);
    await expect(
      authenticated(headers("Bearer t", "x".repeat(MAX_SESSION_ID_LENGTH))),
    ).resolves.toMatchObject({
      sessionId: "x".repeat(MAX_SESSION_ID_LENGTH),
    });
    await expect(authenticated(headers("Bearer t", "  padded id  "))).resolves.toMatchObject({
      sessionId: "padded id",
    });
  });

  it("checks Authorization before the session id", async () => {
    const problem = await rejection(headers(null, null));
    expect(problem.errors?.[0]?.name).toBe("Authorization");
  });
});

const now = () => Math.floor(Date.now() / 1000);
/** An HS* token for agent-42; iat is now unless given (null leaves it out, as for exp, iss and aud). */
async function hsToken(
  claims: JWTPayload = {},
  opts: {
    secret?: string;
    alg?: string;
    iat?: number | null;
    exp?: number | null;
    iss?: string | null;
    aud?: string | null;
  } = {},
) {
  let jwt = new SignJWT({ sub: "agent-42", ...claims }).setProtectedHeader({ alg: opts.alg ?? "HS256" });
  if (opts.iat !== null) jwt = jwt.setIssuedAt(opts.iat);
  if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? now() + 300);
  if (opts.iss !== null) jwt = jwt.setIssuer(opts.iss ?? ISSUER);
  if (opts.aud !== null) jwt = jwt.setAudience(opts.aud ?? AUDIENCE);
  return jwt.sign(new TextEncoder().encode(opts.secret ?? SECRET));
}

const SHARED_SECRET_ENV = {
  ...cleared,
  AUTH_MODE: "jwt",
  AUTH_JWT_SECRET: SECRET,
  AUTH_JWT_ISSUER: ISSUER,
  AUTH_JWT_AUDIENCE: AUDIENCE,
};

/** Freezes Date at `seconds` (only Date: jose reads the clock through it) for each test of the describe. */
function dateFrozenForEachTest(seconds: number): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ["Date"] });
    vi.setSystemTime(seconds * 1000);
  });
  afterEach(() => {
    vi.useRealTimers();
  });
}

describe("jwt mode with a shared secret", () => {
  stubEnvForEachTest(SHARED_SECRET_ENV);

  it("accepts a valid HS256 token and exposes its subject and claims", async () => {
    const principal = await authenticated(headers(`Bearer ${await hsToken({ role: "support" })}`));
    expect(principal).toMatchObject({ subject: "agent-42", mode: "jwt", sessionId: "sess-1" });
    expect(principal.claims).toMatchObject({ iss: ISSUER, aud: AUDIENCE, role: "support" });
  });

  it("accepts HS384 and HS512 too", async () => {
    for (const alg of ["HS384", "HS512"]) {
      await expect(
        authenticated(headers(`Bearer ${await hsToken({}, { alg })}`)),
        alg,
      ).resolves.toMatchObject({
        mode: "jwt",
      });
    }
  });

  it("rejects an expired token (beyond the 5 s clock tolerance)", async () => {
    const problem = await rejection(headers(`Bearer ${await hsToken({}, { exp: now() - 60 })}`));
    expect(problem.detail).toMatch(/expired/);
    expect(problem.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
    // Within tolerance it still passes.
    await expect(
      authenticated(headers(`Bearer ${await hsToken({}, { exp: now() - 1 })}`)),
    ).resolves.toBeTruthy();
  });

  it("rejects a token without exp", async () => {
    const problem = await rejection(headers(`Bearer ${await hsToken({}, { exp: null })}`));
    expect(problem.detail).toMatch(/exp/);
  });

  it("rejects a wrong or missing issuer", async () => {
    expect(
      (await rejection(headers(`Bearer ${await hsToken({}, { iss: "https://evil.test" })}`))).detail,
    ).toMatch(/iss/);
    expect((await rejection(headers(`Bearer ${await hsToken({}, { iss: null })}`))).detail).toMatch(/iss/);
  });

  it("rejects a wrong or missing audience", async () => {
    expect((await rejection(headers(`Bearer ${await hsToken({}, { aud: "someone-else" })}`))).detail).toMatch(
      /aud/,
    );
    expect((await rejection(headers(`Bearer ${await hsToken({}, { aud: null })}`))).detail).toMatch(/aud/);
  });

  it("rejects a bad signature, a tampered payload, an unsigned token and garbage", async () => {
    const other = await hsToken({}, { secret: "another-secret-another-secret-another-secret" });
    const [h, , s] = (await hsToken()).split(".");
    const tampered = `${h}.${Buffer.from(JSON.stringify({ sub: "admin", iss: ISSUER, aud: AUDIENCE, exp: now() + 999 })).toString("base64url")}.${s}`;
    const unsecured = new UnsecuredJWT({ sub: "x" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(now() + 300)
      .encode();
    for (const token of [other, tampered, unsecured, "garbage", "a.b.c", "e30.e30.e30"]) {
      const problem = await rejection(headers(`Bearer ${token}`));
      expect(problem.detail, token).toBe("The access token is not valid.");
      expect(problem.errors).toEqual([{ name: "Authorization", in: "header", detail: "token rejected" }]);
    }
  });

  it("a token without `sub`, or with a `sub` that is not a non-empty string, is a 401 naming Authorization", async () => {
    // It used to pass as the subject "unknown": audited so, and all such callers sharing one rate-limit bucket.
    for (const sub of [undefined, 42, { id: "admin" }, ["agent-42"], "", null, true]) {
      const problem = await rejection(headers(`Bearer ${await hsToken({ sub } as JWTPayload)}`));
      expect(problem.detail, JSON.stringify(sub)).toBe(
        "The access token's sub claim is missing or not a non-empty string.",
      );
      expect(problem.errors).toEqual([{ name: "Authorization", in: "header", detail: "token rejected" }]);
      expect(problem.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
    }
  });

  it("still requires the session id: a valid token without it is a 400 naming it, an invalid one a 401", async () => {
    await sessionRefusal(headers(`Bearer ${await hsToken()}`, null));
    await sessionRefusal(headers(`Bearer ${await hsToken({ sid: "sess-9" })}`, " "));
    // The token is judged first: a rejected one is the 401 naming Authorization, not the session id's 400.
    for (const token of [
      "demo-token",
      `${(await hsToken()).slice(0, -4)}AAAA`,
      await hsToken({}, { iat: 1, exp: 2 }),
    ]) {
      const problem = await rejection(headers(`Bearer ${token}`, null));
      expect(
        problem.errors?.map((e) => e.name),
        token,
      ).toEqual(["Authorization"]);
    }
  });

  it("never accepts a token in jwt mode that demo mode would (any non-empty string)", async () => {
    await rejection(headers("Bearer demo-token"));
  });

  it("a token naming its session (sid) is good for that X-Session-ID only", async () => {
    const bound = await hsToken({ sid: "sess-1" });
    await expect(authenticated(headers(`Bearer ${bound}`, "sess-1"))).resolves.toMatchObject({
      sessionId: "sess-1",
    });
    const problem = await rejection(headers(`Bearer ${bound}`, "someone-elses-session"));
    expect(problem.errors).toEqual([
      { name: "X-Session-ID", in: "header", detail: "must equal the token's `sid` claim" },
    ]);
    // A sid that is not even a string matches no header.
    await rejection(headers(`Bearer ${await hsToken({ sid: 1 })}`, "1"));
  });
});

describe("jwt mode: a token verified a moment ago (the verified-token cache)", () => {
  stubEnvForEachTest(SHARED_SECRET_ENV);
  const start = 1_800_000_000;
  dateFrozenForEachTest(start);
  const token = (exp: number, claims: JWTPayload = {}) => hsToken(claims, { iat: start, exp });

  it("is refused once it expires, as a fresh check would refuse it", async () => {
    const t = await token(start + 30);
    await expect(authenticated(headers(`Bearer ${t}`))).resolves.toMatchObject({
      subject: "agent-42",
    });
    vi.setSystemTime((start + 30 + 5) * 1000 - 1);
    await expect(authenticated(headers(`Bearer ${t}`))).resolves.toBeTruthy();
    vi.setSystemTime((start + 30 + 5) * 1000 + 1000);
    expect((await rejection(headers(`Bearer ${t}`))).detail).toMatch(/expired/);
  });

  it("is still bound to its session on every request", async () => {
    const t = await token(start + 300, { sid: "sess-1" });
    await expect(authenticated(headers(`Bearer ${t}`, "sess-1"))).resolves.toBeTruthy();
    const problem = await rejection(headers(`Bearer ${t}`, "sess-2"));
    expect(problem.errors?.[0]?.name).toBe("X-Session-ID");
  });

  it("does not vouch for another token with the same header and claims but another signature", async () => {
    const t = await token(start + 300);
    await authenticated(headers(`Bearer ${t}`));
    const [h, p, s = ""] = t.split(".");
    const flipped = `${h}.${p}.${s.slice(0, -2)}${s.endsWith("AA") ? "BB" : "AA"}`;
    expect((await rejection(headers(`Bearer ${flipped}`))).detail).toBe("The access token is not valid.");
  });

  it("is forgotten when the configuration changes (another secret refuses it)", async () => {
    const t = await token(start + 300);
    await authenticated(headers(`Bearer ${t}`));
    stubEnv({ AUTH_JWT_SECRET: "a-different-secret-of-sufficient-length-0123456789" });
    expect((await rejection(headers(`Bearer ${t}`))).detail).toBe("The access token is not valid.");
  });

  it("answers at once (no promise) for a token verified a moment ago, and with a promise the first time", async () => {
    const t = await token(start + 300);
    const first = authenticate(headers(`Bearer ${t}`));
    expect(first).toBeInstanceOf(Promise);
    await first;
    const again = authenticate(headers(`Bearer ${t}`));
    expect(again).not.toBeInstanceOf(Promise);
    expect(again).toMatchObject({ subject: "agent-42", mode: "jwt" });
    // A bad session id is still refused at once, by a throw.
    expect(() => authenticate(headers(`Bearer ${t}`, ""))).toThrow(ApiError);
  });

  it("shares claims that a request cannot change for the next one", async () => {
    const t = await token(start + 300, { role: "support" });
    const first = await authenticated(headers(`Bearer ${t}`));
    expect(() => {
      (first.claims as JWTPayload).sub = "admin";
    }).toThrow(TypeError);
    await expect(authenticated(headers(`Bearer ${t}`))).resolves.toMatchObject({
      subject: "agent-42",
    });
  });
});

describe("jwt mode: bounded token lifetime (AUTH_MAX_TOKEN_LIFETIME_SECONDS, default 24 h)", () => {
  stubEnvForEachTest({ ...SHARED_SECRET_ENV, AUTH_MAX_TOKEN_LIFETIME_SECONDS: undefined });
  // Date is frozen, so "now" is exact and the edges are exact.
  const frozen = 1_800_000_000;
  dateFrozenForEachTest(frozen);
  const signed = (iat: number | null, exp: number) => hsToken({}, { iat, exp });
  const accepted = async (token: string) =>
    expect(authenticated(headers(`Bearer ${token}`))).resolves.toMatchObject({
      subject: "agent-42",
    });

  it("exactly the maximum lifetime (exp − iat) passes; one second more is a 401 naming Authorization", async () => {
    await accepted(await signed(frozen, frozen + 86_400));
    const problem = await rejection(headers(`Bearer ${await signed(frozen, frozen + 86_401)}`));
    expect(problem.detail).toMatch(/lifetime \(86401 s, exp - iat\) exceeds the accepted maximum of 86400 s/);
    expect(problem.errors).toEqual([{ name: "Authorization", in: "header", detail: "token rejected" }]);
    expect(problem.headers["WWW-Authenticate"]).toContain('error="invalid_token"');
    // The detail goes into WWW-Authenticate: HTTP headers take no characters beyond Latin-1.
    expect(() => new Headers(problem.headers)).not.toThrow();
    // An old iat does not make a long-lived token acceptable (a year's token, issued a year ago).
    await rejection(headers(`Bearer ${await signed(frozen - 31_536_000, frozen + 60)}`));
  });

  it("without iat the lifetime is exp − now", async () => {
    await accepted(await signed(null, frozen + 86_400));
    await rejection(headers(`Bearer ${await signed(null, frozen + 86_401)}`));
  });

  it("an iat in the future beyond the 5 s clock tolerance is a 401", async () => {
    await accepted(await signed(frozen + 5, frozen + 300));
    const problem = await rejection(headers(`Bearer ${await signed(frozen + 6, frozen + 300)}`));
    expect(problem.detail).toBe("The access token's iat claim lies in the future.");
    expect(problem.errors?.[0]?.name).toBe("Authorization");
  });

  it("AUTH_MAX_TOKEN_LIFETIME_SECONDS changes the limit", async () => {
    stubEnv({ AUTH_MAX_TOKEN_LIFETIME_SECONDS: "600" });
    await accepted(await signed(frozen, frozen + 600));
    await rejection(headers(`Bearer ${await signed(frozen, frozen + 601)}`));
  });
});

describe("jwt mode: configuration", () => {
  afterEach(restoreEnv);

  it("AUTH_JWT_ALGORITHMS narrows the accepted algorithms", async () => {
    stubEnv({ ...cleared, AUTH_MODE: "jwt", AUTH_JWT_SECRET: SECRET, AUTH_JWT_ALGORITHMS: "HS512" });
    await rejection(headers(`Bearer ${await hsToken({}, { iss: null, aud: null })}`));
    await expect(
      authenticated(headers(`Bearer ${await hsToken({}, { alg: "HS512", iss: null, aud: null })}`)),
    ).resolves.toMatchObject({ mode: "jwt" });
  });

  it("without issuer and audience configured, tokens need neither", async () => {
    stubEnv({ ...cleared, AUTH_MODE: "jwt", AUTH_JWT_SECRET: SECRET });
    await expect(
      authenticated(headers(`Bearer ${await hsToken({}, { iss: null, aud: null })}`)),
    ).resolves.toMatchObject({ subject: "agent-42" });
  });
});

describe("jwt mode with a JWKS URL", () => {
  let server: Server;
  let jwksUrl: string;
  let signingKey: CryptoKey;
  let strangerKey: CryptoKey;
  let requests = 0;
  let closedPort: number;

  beforeAll(async () => {
    const pair = await generateKeyPair("RS256");
    const stranger = await generateKeyPair("RS256");
    signingKey = pair.privateKey;
    strangerKey = stranger.privateKey;
    const jwk = { ...(await exportJWK(pair.publicKey)), kid: "k1", alg: "RS256", use: "sig" };
    server = createServer((req, res) => {
      requests++;
      if (req.url !== "/.well-known/jwks.json") {
        res.writeHead(404).end();
        return;
      }
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify({ keys: [jwk] }));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    jwksUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/.well-known/jwks.json`;
    // A port that refuses connections: taken, then released.
    const probe = createServer();
    await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
    closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  beforeEach(() => {
    stubEnv({
      ...cleared,
      AUTH_MODE: "jwt",
      AUTH_JWKS_URL: jwksUrl,
      AUTH_JWT_ISSUER: ISSUER,
      AUTH_JWT_AUDIENCE: AUDIENCE,
    });
  });
  afterEach(restoreEnv);

  const rsToken = (key: CryptoKey, kid = "k1", exp = now() + 300, aud = AUDIENCE) =>
    new SignJWT({ sub: "svc-reporting" })
      .setProtectedHeader({ alg: "RS256", kid })
      .setIssuer(ISSUER)
      .setAudience(aud)
      .setExpirationTime(exp)
      .sign(key);

  it("accepts a token signed by a key the JWKS publishes (fetched from the URL)", async () => {
    const before = requests;
    await expect(authenticated(headers(`Bearer ${await rsToken(signingKey)}`))).resolves.toMatchObject({
      subject: "svc-reporting",
      mode: "jwt",
    });
    expect(requests).toBeGreaterThan(before);
  });

  it("rejects a token signed by another key under the same kid, or an unknown kid", async () => {
    await rejection(headers(`Bearer ${await rsToken(strangerKey)}`));
    await rejection(headers(`Bearer ${await rsToken(signingKey, "unknown-kid")}`));
  });

  it("a key set that cannot be fetched is a 503 (retry), not a 401 or a 500", async () => {
    stubEnv({ AUTH_JWKS_URL: jwksUrl.replace("/.well-known/jwks.json", "/missing.json") });
    const missing = await authenticated(headers(`Bearer ${await rsToken(signingKey)}`)).catch(
      (e: unknown) => e,
    );
    expect(missing).toMatchObject({ status: 503 });
    stubEnv({ AUTH_JWKS_URL: `http://127.0.0.1:${closedPort}/jwks.json` });
    const down = await authenticated(headers(`Bearer ${await rsToken(signingKey)}`)).catch((e: unknown) => e);
    expect(down).toBeInstanceOf(ApiError);
    expect(down).toMatchObject({
      status: 503,
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/service-unavailable$/),
    });
  });

  it("rejects an expired token and an HS256 token made with the public key as secret", async () => {
    expect(
      (await rejection(headers(`Bearer ${await rsToken(signingKey, "k1", now() - 60)}`))).detail,
    ).toMatch(/expired/);
    // Algorithm confusion: with a JWKS only asymmetric algorithms are allowed.
    await rejection(headers(`Bearer ${await hsToken({}, { secret: "k1" })}`));
  });

  /** A token signed by the provider's key, addressed to this API, with the given header type and claims. */
  const providerToken = (claims: JWTPayload, typ?: string) =>
    new SignJWT({ sub: "ada.admin", ...claims })
      .setProtectedHeader({ alg: "RS256", kid: "k1", ...(typ ? { typ } : {}) })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(now() + 300)
      .sign(signingKey);

  it("refuses an ID token addressed to this API (nonce, at_hash, c_hash, auth_time without scope, typ ID)", async () => {
    // An admin's ID token, with the API in its audience: accepted before, with `groups` and no session.
    const idTokens: [string, JWTPayload, string | undefined, RegExp][] = [
      ["nonce", { nonce: "n-0S6_WzA2Mj", groups: ["admin"] }, undefined, /carries `nonce`/],
      ["at_hash", { at_hash: "77QmUPtjPfzWtF2AnpK9RQ", groups: ["admin"] }, "JWT", /carries `at_hash`/],
      ["c_hash", { c_hash: "LDktKdoQak3Pk0cnXxCltA" }, undefined, /carries `c_hash`/],
      ["auth_time, no scope", { auth_time: now() - 60, groups: ["admin"] }, undefined, /auth_time/],
      ["Keycloak's typ: ID", { typ: "ID", azp: "back-office" }, undefined, /typ: ID/],
      ["a logout token", { events: {}, jti: "x" }, "logout+jwt", /typ/],
      ["nonce, even as at+jwt", { nonce: "n", scope: "players:read" }, "at+jwt", /nonce/],
    ];
    for (const [label, claims, typ, detail] of idTokens) {
      const problem = await rejection(headers(`Bearer ${await providerToken(claims, typ)}`));
      expect(problem.detail, label).toMatch(detail);
      expect(problem.errors, label).toEqual([
        { name: "Authorization", in: "header", detail: "token rejected" },
      ]);
      expect(() => new Headers(problem.headers), label).not.toThrow();
    }
  });

  it("accepts RFC 9068 access tokens (typ at+jwt), auth_time included, and plain JWTs with a scope", async () => {
    const accessTokens: [string | undefined, JWTPayload][] = [
      ["at+jwt", { client_id: "reporting", scope: "players:read", auth_time: now() - 60, jti: "a1" }],
      ["application/at+jwt", { client_id: "reporting", groups: ["support_agent"], auth_time: now() - 60 }],
      ["JWT", { scope: "players:read", auth_time: now() - 60 }],
      [undefined, { scope: "players:read" }],
    ];
    for (const [typ, claims] of accessTokens) {
      await expect(
        authenticated(headers(`Bearer ${await providerToken(claims, typ)}`)),
        String(typ),
      ).resolves.toMatchObject({ subject: "ada.admin", mode: "jwt", scopes: ["players:read"] });
    }
  });

  it("rejects a token the provider signed for another client (aud = that client)", async () => {
    const problem = await rejection(
      headers(`Bearer ${await rsToken(signingKey, "k1", now() + 300, "another-client")}`),
    );
    expect(problem.detail).toMatch(/aud/);
  });

  it("accepts no HS256 token without an explicit AUTH_JWT_SECRET (a generated or derived key is not one)", async () => {
    stubEnv({ NEXTAUTH_SECRET: "session-secret-session-secret-session-secret" });
    const derived = createHmac("sha256", "session-secret-session-secret-session-secret")
      .update("api-access-token")
      .digest();
    const forged = await new SignJWT({ sub: "intruder", role: "admin" })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuer(ISSUER)
      .setAudience(AUDIENCE)
      .setExpirationTime(now() + 300)
      .sign(derived);
    await rejection(headers(`Bearer ${forged}`));
    await rejection(headers(`Bearer ${await hsToken({ role: "admin" })}`));
  });
});
