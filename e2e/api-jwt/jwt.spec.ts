import { expect, test } from "@playwright/test";
import { SignJWT } from "jose";
import { FIXTURE_PLAYER_ID } from "../../scripts/test-fixtures.ts";
import { expectProblem } from "../api/helpers.ts";
import { E2E_JWT } from "../jwt-config.ts";

/* The server of this project runs with AUTH_MODE=jwt and the settings in e2e/jwt-config.ts. */
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
  } = {},
): Promise<string> {
  // By default a caller that may read players (least privilege: a token without a read scope gets 403).
  let jwt = new SignJWT({ sub: "e2e-agent", scope: opts.scope ?? "players:read players:pii" })
    .setProtectedHeader({ alg: opts.alg ?? "HS256" })
    .setIssuedAt()
    .setIssuer(opts.iss ?? E2E_JWT.issuer)
    .setAudience(opts.aud ?? E2E_JWT.audience);
  if (opts.exp !== null) jwt = jwt.setExpirationTime(opts.exp ?? now() + 300);
  return jwt.sign(key(opts.secret ?? E2E_JWT.secret));
}

const PATHS = [
  `/api/v1/players/${FIXTURE_PLAYER_ID}`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions?limit=1`,
  "/api/v1/players?q=PTEST",
];
const headers = (authorization: string) => ({ Authorization: authorization, "X-Session-ID": "jwt-session" });

test.describe("AUTH_MODE=jwt over HTTP", () => {
  test("a valid signed token is accepted on every operation", async ({ request }) => {
    const t = await token();
    for (const path of PATHS) {
      const res = await request.get(path, { headers: headers(`Bearer ${t}`) });
      expect(res.status(), path).toBe(200);
      expect(res.headers()["cache-control"]).toBe("no-store");
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

  test("missing credentials are still named", async ({ request }) => {
    await expectProblem(await request.get(PATHS[0] as string), 401, ["Authorization"]);
    await expectProblem(
      await request.get(PATHS[0] as string, { headers: { Authorization: `Bearer ${await token()}` } }),
      401,
      ["X-Session-ID"],
    );
  });

  test("health and the document stay public", async ({ request }) => {
    expect((await request.get("/api/health")).status()).toBe(200);
    expect((await request.get("/api/v1/openapi.json")).status()).toBe(200);
  });
});
