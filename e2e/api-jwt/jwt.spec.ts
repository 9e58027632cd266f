import { expect, test } from "@playwright/test";
import { SignJWT } from "jose";
import { E2E_JWT } from "../../test/support/jwt-config.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { expectProblem } from "../api/helpers.ts";

/* The server of this project runs with AUTH_MODE=jwt and the settings in test/support/jwt-config.ts. */
const now = () => Math.floor(Date.now() / 1000);
const key = (secret: string) => new TextEncoder().encode(secret);

async function token(
  opts: {
    secret?: string;
    exp?: number | null;
    iss?: string;
    aud?: string;
    alg?: string;
    scope?: string;
    /** null leaves iat out; the default is now. */
    iat?: number | null;
    claims?: Record<string, unknown>;
  } = {},
): Promise<string> {
  // By default a caller that may read players (least privilege: a token without a read scope gets 403).
  const scope = "scope" in opts ? opts.scope : "players:read players:pii";
  let jwt = new SignJWT({ sub: "e2e-agent", scope, ...opts.claims })
    .setProtectedHeader({ alg: opts.alg ?? "HS256" })
    .setIssuer(opts.iss ?? E2E_JWT.issuer)
    .setAudience(opts.aud ?? E2E_JWT.audience);
  if (opts.iat !== null) jwt = jwt.setIssuedAt(opts.iat ?? now());
  if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? now() + 300);
  return jwt.sign(key(opts.secret ?? E2E_JWT.secret));
}

const PATHS = [
  `/api/v1/players/${FIXTURE_PLAYER_ID}`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?limit=1`,
  "/api/v1/players?q=PTEST",
];
const headers = (authorization: string, sessionId = "jwt-session") => ({
  Authorization: authorization,
  "X-Session-ID": sessionId,
});
const DAY = 86_400; // AUTH_MAX_TOKEN_LIFETIME_SECONDS' default: the jwt server does not set it.

test.describe("AUTH_MODE=jwt over HTTP", () => {
  test("a valid signed token is accepted on every operation", async ({ request }) => {
    const t = await token();
    for (const path of PATHS) {
      const res = await request.get(path, { headers: headers(`Bearer ${t}`) });
      expect(res.status(), path).toBe(200);
      expect(res.headers()["cache-control"]).toBe("private, no-store");
    }
    expect(
      (
        await request.get(PATHS[0] as string, { headers: headers(`bearer ${await token({ alg: "HS512" })}`) })
      ).status(),
    ).toBe(200);
  });

  test("a valid token without the read scope is 403 insufficient_scope", async ({ request }) => {
    const res = await request.get(PATHS[0] as string, {
      headers: headers(`Bearer ${await token({ scope: "" })}`),
    });
    expect(res.status()).toBe(403);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
    expect(res.headers()["www-authenticate"]).toMatch(/insufficient_scope/);
  });

  test("expired, wrong-audience, wrong-issuer, unsigned-by-us and garbage tokens are 401 invalid_token", async ({
    request,
  }) => {
    const cases: [string, string, RegExp][] = [
      ["expired", await token({ exp: now() - 120 }), /expired/],
      ["no exp", await token({ exp: null }), /exp/],
      ["wrong audience", await token({ aud: "someone-else" }), /aud/],
      ["wrong issuer", await token({ iss: "https://evil.test" }), /iss/],
      ["other secret", await token({ secret: "not-the-e2e-secret-not-the-e2e-secret-xx" }), /not valid/],
      ["garbage", "garbage", /not valid/],
      ["demo-style token", "e2e-token", /not valid/],
      ["truncated", (await token()).slice(0, -5), /not valid/],
      [
        "no sub",
        await token({ claims: { sub: undefined } }),
        /sub claim is missing or not a non-empty string/,
      ],
      ["numeric sub", await token({ claims: { sub: 42 } }), /sub claim is missing or not a non-empty string/],
      ["an ID token (nonce, at_hash)", await token({ claims: { nonce: "n", at_hash: "x" } }), /ID token/],
      [
        "auth_time without scope",
        await token({ scope: undefined, claims: { auth_time: now() } }),
        /ID token/,
      ],
    ];
    for (const [label, t, detail] of cases) {
      for (const path of PATHS) {
        const res = await request.get(path, { headers: headers(`Bearer ${t}`) });
        const body = await expectProblem(res, 401, ["Authorization"]);
        expect(body.detail, label).toMatch(detail);
        expect(res.headers()["www-authenticate"], label).toContain('error="invalid_token"');
        expect(res.headers()["www-authenticate"]).toMatch(/^Bearer /);
      }
    }
  });

  test("a token minted for longer than 24 h, or dated ahead, is 401 naming Authorization", async ({
    request,
  }) => {
    const issued = now();
    const path = PATHS[0] as string;
    const atLimit = await token({ iat: issued, exp: issued + DAY });
    expect((await request.get(path, { headers: headers(`Bearer ${atLimit}`) })).status()).toBe(200);
    const cases: [string, string, RegExp][] = [
      ["one second over", await token({ iat: issued, exp: issued + DAY + 1 }), /lifetime \(86401 s/],
      ["a year's token", await token({ iat: issued - 300, exp: issued + 365 * DAY }), /exceeds the accepted/],
      [
        "no iat, exp beyond 24 h",
        await token({ iat: null, exp: issued + DAY + 120 }),
        /exceeds the accepted/,
      ],
      [
        "iat a minute ahead",
        await token({ iat: issued + 60, exp: issued + 600 }),
        /iat claim lies in the future/,
      ],
    ];
    for (const [label, t, detail] of cases) {
      const res = await request.get(path, { headers: headers(`Bearer ${t}`) });
      const body = await expectProblem(res, 401, ["Authorization"]);
      expect(body.detail, label).toMatch(detail);
      expect(res.headers()["www-authenticate"], label).toContain('error="invalid_token"');
    }
  });

  test("a token naming its session (sid) is refused with any other X-Session-ID", async ({ request }) => {
    const bound = await token({ claims: { sid: "the-real-session" } });
    const path = PATHS[0] as string;
    expect(
      (await request.get(path, { headers: headers(`Bearer ${bound}`, "the-real-session") })).status(),
    ).toBe(200);
    const res = await request.get(path, { headers: headers(`Bearer ${bound}`, "a-forged-session") });
    const body = await expectProblem(res, 401, ["X-Session-ID"]);
    expect(body.detail).toMatch(/does not match the session the access token was issued for/);
  });

  test("roles come from `groups` as at sign-in: admin reads the audit trail, a support agent cannot", async ({
    request,
  }) => {
    const profile = `/api/v1/players/${FIXTURE_PLAYER_ID}`;
    const admin = await token({ scope: "", claims: { groups: ["admin"] } });
    const audit = await request.get(`${profile}/audit`, { headers: headers(`Bearer ${admin}`) });
    expect(audit.status()).toBe(200);
    expect(Array.isArray((await audit.json()).events)).toBe(true);

    const agent = await token({ scope: "", claims: { groups: ["support_agent"] } });
    const masked = await request.get(profile, { headers: headers(`Bearer ${agent}`) });
    expect(masked.status()).toBe(200);
    const body = await masked.json();
    // The fixture player's fixture.player@example.com and +44 7000000001, masked.
    expect(body.email).toBe("f***@example.com");
    expect(body.phone).toBe("+44 ••• ••• 01");
    const denied = await request.get(`${profile}/audit`, { headers: headers(`Bearer ${agent}`) });
    await expectProblem(denied, 403);
    expect(denied.headers()["www-authenticate"]).toContain('error="insufficient_scope"');
  });

  test("missing credentials are still named", async ({ request }) => {
    await expectProblem(await request.get(PATHS[0] as string), 401, ["Authorization"]);
    // A valid token without X-Session-ID: a 400 naming the header (the credentials are fine, the request is not).
    await expectProblem(
      await request.get(PATHS[0] as string, { headers: { Authorization: `Bearer ${await token()}` } }),
      400,
      ["X-Session-ID"],
    );
    // An invalid token without it: still the 401 naming Authorization.
    await expectProblem(
      await request.get(PATHS[0] as string, { headers: { Authorization: "Bearer not-a-token" } }),
      401,
      ["Authorization"],
    );
  });

  test("health and the document stay public", async ({ request }) => {
    expect((await request.get("/api/health")).status()).toBe(200);
    expect((await request.get("/api/v1/openapi.json")).status()).toBe(200);
  });
});
