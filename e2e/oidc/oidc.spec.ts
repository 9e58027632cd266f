import { createDecipheriv, hkdfSync } from "node:crypto";
import {
  type APIRequestContext,
  type BrowserContext,
  expect,
  type Page,
  request as playwrightRequest,
  test,
} from "@playwright/test";
import { decode } from "next-auth/jwt";
import pg from "pg";
import { ROLE_LABELS } from "../../platform/auth/roles.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { OIDC_ACCOUNTS, OIDC_E2E, type OidcLogin } from "./oidc-config.ts";

/*
 * The back office signing in through a real OpenID provider (e2e/oidc/provider.ts, oidc-provider with its
 * default claims: only `sub` in the ID token), on an AUTH_MODE=jwt server on PostgreSQL.
 */

// A seeded player with contact data (see e2e/api/trust.spec.ts).
const PLAYER = "/api/v1/players/P000007";

/** Every request stays on loopback (the provider's stock pages would fetch a web font). */
async function loopbackOnly(context: BrowserContext): Promise<void> {
  await context.route(
    (url) => url.hostname !== "127.0.0.1",
    (route) => route.abort(),
  );
}

/** On the provider's own pages: its login form, then its consent page when it asks. */
async function providerLogin(page: Page, login: OidcLogin): Promise<void> {
  await expect(page).toHaveURL(new RegExp(`^${OIDC_E2E.issuer}/interaction/`));
  await page.locator('input[name="login"]').fill(login);
  await page.locator('input[name="password"]').fill("any password: the development login accepts it");
  await page.getByRole("button", { name: "Sign-in" }).click();
  const consent = page.getByRole("button", { name: "Continue" });
  await page.waitForURL((url) => url.origin === OIDC_E2E.appUrl || url.pathname.startsWith("/interaction/"));
  if (new URL(page.url()).origin !== OIDC_E2E.appUrl) await consent.click();
  await page.waitForURL((url) => url.origin === OIDC_E2E.appUrl);
}

async function signInWithProvider(page: Page, login: OidcLogin): Promise<void> {
  await page.goto("/sign-in");
  await page.getByRole("button", { name: `Sign in with ${OIDC_E2E.providerName}` }).click();
  await providerLogin(page, login);
}

/** What the provider says about `login` from now on (its test hook); null removes the account. */
async function setAccount(login: OidcLogin, claims: Record<string, unknown> | null): Promise<void> {
  const res = await fetch(`${OIDC_E2E.issuer}/test/accounts/${login}`, {
    method: claims ? "PUT" : "DELETE",
    body: claims ? JSON.stringify(claims) : undefined,
  });
  expect(res.status).toBe(204);
}

/** The role in the API token the signed-in browser gets now, or the status when it gets none. */
async function tokenRole(request: APIRequestContext): Promise<string | number | null> {
  const res = await request.get("/api/session/token");
  if (res.status() !== 200) return res.status();
  const { access_token: token } = await res.json();
  return JSON.parse(Buffer.from(token.split(".")[1], "base64url").toString()).role ?? null;
}

/**
 * A read as the signed-in browser makes it: a token from /api/session/token, and on a 401 one more try with a new
 * one (platform/client/api-client.ts does the same: a token is refused once the user's roles are due to be read again).
 */
async function readAsBrowser(request: APIRequestContext, path: string): Promise<number> {
  for (let attempt = 0; ; attempt++) {
    const status = (await request.get(path, { headers: await apiHeaders(request) })).status();
    if (status !== 401 || attempt > 0) return status;
  }
}

/** The signed-in browser's API credentials, as the UI gets them. */
async function apiHeaders(request: APIRequestContext): Promise<Record<string, string>> {
  const res = await request.get("/api/session/token");
  expect(res.status()).toBe(200);
  const { access_token: token, session_id: sessionId } = await res.json();
  return { Authorization: `Bearer ${token}`, "X-Session-ID": sessionId };
}

/** The provider's authorization code for `clientId`, signed in as `login` on its own pages. */
async function authorizationCode(
  page: Page,
  opts: { clientId: string; redirectUri: string; login: OidcLogin; nonce?: string },
): Promise<string> {
  const authorize = new URL(`${OIDC_E2E.issuer}/auth`);
  const params = { client_id: opts.clientId, response_type: "code", scope: "openid profile" };
  for (const [k, v] of Object.entries({ ...params, redirect_uri: opts.redirectUri })) {
    authorize.searchParams.set(k, v);
  }
  if (opts.nonce) authorize.searchParams.set("nonce", opts.nonce);
  await page.goto(authorize.href);
  await page.locator('input[name="login"]').fill(opts.login);
  await page.locator('input[name="password"]').fill("any");
  const callback = page.waitForRequest((r) => r.url().startsWith(opts.redirectUri));
  await page.getByRole("button", { name: "Sign-in" }).click();
  // The provider asks for consent the first time a browser signs in to a client.
  const consent = page.getByRole("button", { name: "Continue" });
  const asked = await Promise.race([
    callback.then(() => false),
    consent.waitFor({ timeout: 30_000 }).then(
      () => true,
      () => false,
    ),
  ]);
  if (asked) await consent.click();
  const code = new URL((await callback).url()).searchParams.get("code");
  expect(code).toBeTruthy();
  return code ?? "";
}

/** The token endpoint's answer to an authorization code, as the client `clientId`. */
async function exchangeCode(
  request: APIRequestContext,
  opts: { clientId: string; clientSecret: string; redirectUri: string; code: string },
): Promise<{ id_token: string; access_token: string }> {
  const tokens = await request.post(`${OIDC_E2E.issuer}/token`, {
    form: { grant_type: "authorization_code", code: opts.code, redirect_uri: opts.redirectUri },
    headers: {
      Authorization: `Basic ${Buffer.from(`${opts.clientId}:${opts.clientSecret}`).toString("base64")}`,
    },
  });
  expect(tokens.status()).toBe(200);
  const body = await tokens.json();
  expect(typeof body.id_token).toBe("string");
  return body;
}

/** The app server's NEXTAUTH_SECRET (playwright.config.ts): it encrypts the cookie and seals the session's tokens. */
const APP_SESSION_SECRET = "oidc-e2e-nextauth-secret-0123456789abcdef";

/**
 * A session row's sealed provider tokens, opened as platform/auth/sealed-token.ts seals them (AES-256-GCM, key by HKDF
 * from the session secret, the session id as associated data), written again here so that the test does not
 * trust the code it checks.
 */
function openSealed(sealed: string, sessionId: string): string {
  const [version, iv, body, tag] = sealed.split(".");
  expect(version).toBe("v1");
  const key = Buffer.from(
    hkdfSync("sha256", APP_SESSION_SECRET, "", "player-account-read auth-session idp-tokens", 32),
  );
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv ?? "", "base64url"), {
    authTagLength: 16,
  })
    .setAAD(Buffer.from(sessionId))
    .setAuthTag(Buffer.from(tag ?? "", "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(body ?? "", "base64url")), decipher.final()]).toString();
}

test.describe("sign-in through an OpenID provider", () => {
  test.beforeEach(async ({ context }) => loopbackOnly(context));

  test("a support agent (role in `role`, from userinfo) reads masked contact data and no audit trail", async ({
    page,
  }) => {
    await signInWithProvider(page, "sam.support");
    await expect(page.getByRole("heading", { name: "Player lookup" })).toBeVisible();
    const user = page.getByTestId("signed-in-user");
    await expect(user).toContainText(OIDC_ACCOUNTS["sam.support"].name);
    await expect(user).toContainText(ROLE_LABELS.support_agent);

    const headers = await apiHeaders(page.request);
    const profile = await page.request.get(PLAYER, { headers });
    expect(profile.status()).toBe(200);
    expect((await profile.json()).email).toMatch(/^.\*\*\*@example\.com$/);
    expect((await page.request.get(`${PLAYER}/audit`, { headers })).status()).toBe(403);
  });

  test("an admin (role in `groups`) reads the audit trail; sign-out ends the provider's session too", async ({
    page,
  }) => {
    await signInWithProvider(page, "ada.admin");
    await expect(page.getByTestId("signed-in-user")).toContainText(OIDC_ACCOUNTS["ada.admin"].name);
    await expect(page.getByTestId("signed-in-user")).toContainText(ROLE_LABELS.admin);
    const headers = await apiHeaders(page.request);
    expect((await page.request.get(`${PLAYER}/audit`, { headers })).status()).toBe(200);

    // Everything the browser's address bar and history will hold, and the sign-out's answer.
    const visited: string[] = [];
    page.on("request", (r) => {
      if (r.isNavigationRequest()) visited.push(r.url());
    });
    const copied = await page.context().cookies();
    // The sign-out's answer, read on its way to the page (its body is gone once the page navigates).
    let url = "";
    await page.route("**/api/auth/end-session", async (route) => {
      const answer = await route.fetch();
      url = (await answer.json()).url;
      await route.fulfill({ response: answer });
    });
    await page.getByRole("button", { name: "Sign out" }).click();
    // The provider's end-session page, reached by client_id: no ID token in the address.
    await expect(page).toHaveURL(new RegExp(`^${OIDC_E2E.issuer}/session/end`));
    expect(new URL(url).searchParams.get("client_id")).toBe(OIDC_E2E.backOffice.clientId);
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await expect(page).toHaveURL(`${OIDC_E2E.appUrl}/sign-in`);
    expect(visited.length).toBeGreaterThan(1);
    for (const address of [url, ...visited]) {
      expect(address).not.toMatch(/id_token_hint/);
      expect(address).not.toMatch(/eyJ[\w-]+\.eyJ[\w-]+\./);
    }
    expect((await page.request.get("/api/session/token")).status()).toBe(401);
    // The cookie as it was before sign-out, replayed from elsewhere: its session has ended.
    const thief = await playwrightRequest.newContext({
      baseURL: OIDC_E2E.appUrl,
      storageState: { cookies: copied, origins: [] },
    });
    expect((await thief.get("/api/session/token")).status()).toBe(401);
    await thief.dispose();

    // Signing in again asks the provider for credentials instead of passing straight through.
    await page.getByRole("button", { name: `Sign in with ${OIDC_E2E.providerName}` }).click();
    await expect(page.locator('input[name="login"]')).toBeVisible();
    await providerLogin(page, "ada.admin");
    await expect(page.getByTestId("signed-in-user")).toContainText(ROLE_LABELS.admin);
  });

  test("the provider's ID token is kept neither in the session cookie nor in the session table", async ({
    page,
  }) => {
    await signInWithProvider(page, "ada.admin");
    await expect(page.getByTestId("signed-in-user")).toContainText(OIDC_ACCOUNTS["ada.admin"].name);
    // Every ID token the provider has handed the back office's client, this sign-in's among them.
    const idTokens = (await (await fetch(`${OIDC_E2E.issuer}/test/id-tokens`)).json()) as string[];
    expect(idTokens.length).toBeGreaterThan(0);
    // Its claims or its signature (the header is the provider's, shared by other tokens): either kept would be
    // the ID token kept.
    const pieces = idTokens.flatMap((t) => t.split(".").slice(1));
    const holdsNone = (text: string, where: string) => {
      for (const piece of pieces)
        expect(text.includes(piece), `${where} holds part of an ID token`).toBe(false);
    };

    // The cookie, as sent and as the server reads it (next-auth encrypts it with the session secret).
    const cookies = (await page.context().cookies(OIDC_E2E.appUrl)).filter((c) =>
      c.name.startsWith("next-auth.session-token"),
    );
    expect(cookies.length).toBeGreaterThan(0);
    const sealedCookie = cookies
      .sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true }))
      .map((c) => c.value)
      .join("");
    holdsNone(sealedCookie, "the cookie");
    const claims = await decode({ token: sealedCookie, secret: APP_SESSION_SECRET });
    expect(typeof claims?.sid).toBe("string");
    holdsNone(JSON.stringify(claims), "the cookie's claims");

    // The session's row, its sealed provider tokens opened.
    const db = new pg.Client({ connectionString: process.env.E2E_POSTGRES_URL });
    await db.connect();
    try {
      const { rows } = await db.query<{ row: string; idp_tokens: string | null }>(
        "SELECT row_to_json(s)::text AS row, idp_tokens FROM auth_sessions s WHERE id = $1",
        [claims?.sid],
      );
      expect(rows).toHaveLength(1);
      holdsNone(rows[0]?.row ?? "", "the session row");
      // The refresh token is kept (roles are re-read with it): the row was opened, not merely unreadable.
      const opened = JSON.parse(openSealed(rows[0]?.idp_tokens ?? "", String(claims?.sid)));
      expect(typeof opened.refreshToken).toBe("string");
      holdsNone(JSON.stringify(opened), "the session's sealed tokens");
    } finally {
      await db.end();
    }
  });

  test("a role changed at the provider is in force within AUTH_ROLE_RECHECK_SECONDS; a user gone there is signed out", async ({
    page,
  }) => {
    const rita = OIDC_ACCOUNTS["rita.roles"];
    // Due after the interval, then the re-read itself: the provider's answer (the app waits up to 5 s for it,
    // platform/auth/idp-roles.ts) and 3 s for a busy machine (CI runs other servers beside this one).
    const inForce = (OIDC_E2E.roleRecheckSeconds + 5 + 3) * 1000;
    await setAccount("rita.roles", rita);
    try {
      await signInWithProvider(page, "rita.roles");
      await expect(page.getByTestId("signed-in-user")).toContainText(ROLE_LABELS.admin);
      expect(await readAsBrowser(page.request, `${PLAYER}/audit`)).toBe(200);
      const asAdmin = await apiHeaders(page.request);

      await setAccount("rita.roles", { ...rita, groups: ["staff", "support_agent"] });
      const changed = Date.now();
      await expect
        .poll(() => tokenRole(page.request), { timeout: inForce, intervals: [250] })
        .toBe("support_agent");
      expect(Date.now() - changed).toBeLessThanOrEqual(inForce);
      // The admin token from before the change, still unexpired, no longer reads the audit trail.
      expect((await page.request.get(`${PLAYER}/audit`, { headers: asAdmin })).status()).toBe(401);
      expect(await readAsBrowser(page.request, `${PLAYER}/audit`)).toBe(403);
      expect(await readAsBrowser(page.request, PLAYER)).toBe(200);
      await page.reload();
      await expect(page.getByTestId("signed-in-user")).toContainText(ROLE_LABELS.support_agent);

      await setAccount("rita.roles", { ...rita, groups: ["staff"] });
      await expect.poll(() => tokenRole(page.request), { timeout: inForce, intervals: [250] }).toBeNull();
      await page.reload();
      await expect(page.getByTestId("no-role")).toBeVisible();

      // Gone at the provider: the refresh is refused, so the session ends (fail closed).
      await setAccount("rita.roles", null);
      await expect.poll(() => tokenRole(page.request), { timeout: inForce, intervals: [250] }).toBe(401);
      await page.goto("/");
      await expect(page).toHaveURL(/\/sign-in/);
    } finally {
      await setAccount("rita.roles", rita);
    }
  });

  test("the provider's RFC 9068 access token for the API (typ at+jwt) is accepted", async ({ request }) => {
    const { clientId, clientSecret } = OIDC_E2E.serviceClient;
    // The token URL as the OpenAPI document publishes it (oauth2 client credentials; here <issuer>/token).
    const document = await (await request.get("/api/v1/openapi.json")).json();
    const flow = document.components.securitySchemes.oauth2.flows.clientCredentials;
    expect(flow.tokenUrl).toBe(`${OIDC_E2E.issuer}/token`);
    expect(Object.keys(flow.scopes)).toContain("players:read");
    const tokens = await request.post(flow.tokenUrl, {
      form: { grant_type: "client_credentials", scope: "players:read", resource: OIDC_E2E.apiResource },
      headers: { Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}` },
    });
    expect(tokens.status()).toBe(200);
    const { access_token: token } = await tokens.json();
    const header = JSON.parse(Buffer.from(token.split(".")[0], "base64url").toString());
    expect(header).toMatchObject({ typ: "at+jwt", alg: "RS256" });
    const profile = await request.get(PLAYER, {
      headers: { Authorization: `Bearer ${token}`, "X-Session-ID": "reporting-run-1" },
    });
    expect(profile.status()).toBe(200);
    // players:read only: contact data masked.
    expect((await profile.json()).email).toMatch(/^.\*\*\*@example\.com$/);
  });

  test("client credentials as docs/integrations.md says: a bare name as resource is refused, an opaque token is 401", async ({
    request,
  }) => {
    const { clientId, clientSecret } = OIDC_E2E.serviceClient;
    const tokenUrl = `${OIDC_E2E.issuer}/token`;
    const headers = {
      Authorization: `Basic ${Buffer.from(`${clientId}:${clientSecret}`).toString("base64")}`,
    };
    // RFC 8707: a resource indicator is an absolute URI; a bare audience name is refused by the provider.
    const bare = await request.post(tokenUrl, {
      form: { grant_type: "client_credentials", scope: "players:read", resource: OIDC_E2E.apiAudience },
      headers,
    });
    expect(bare.status()).toBe(400);
    expect((await bare.json()).error).toBe("invalid_target");
    // Without a resource the provider issues an opaque access token: the API cannot verify it.
    const opaque = await request.post(tokenUrl, { form: { grant_type: "client_credentials" }, headers });
    expect(opaque.status()).toBe(200);
    const { access_token: token } = await opaque.json();
    expect(token.split(".")).toHaveLength(1);
    const res = await request.get(PLAYER, {
      headers: { Authorization: `Bearer ${token}`, "X-Session-ID": "reporting-run-opaque" },
    });
    expect(res.status()).toBe(401);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
  });

  test("a user without a back-office role sees one page saying so and whom to ask", async ({ page }) => {
    await signInWithProvider(page, "nora.norole");
    const notice = page.getByTestId("no-role");
    await expect(notice.getByRole("heading")).toHaveText("Your account has no role in this back office");
    await expect(notice).toContainText(OIDC_E2E.accessContact);
    await expect(page.getByRole("heading", { name: "Player lookup" })).toHaveCount(0);
    // Every back-office page, not only the start page.
    await page.goto(`/players/${FIXTURE_PLAYER_ID}`);
    await expect(page.getByTestId("no-role")).toBeVisible();
    await expect(page.getByTestId("player-name")).toHaveCount(0);

    await notice.getByRole("button", { name: "Sign out" }).click();
    await page.getByRole("button", { name: "Yes, sign me out" }).click();
    await expect(page).toHaveURL(`${OIDC_E2E.appUrl}/sign-in`);
  });

  test("an ID token the provider issued to another application is refused by the API (401)", async ({
    page,
    request,
  }) => {
    const { clientId, clientSecret, redirectUri } = OIDC_E2E.otherClient;
    const code = await authorizationCode(page, { clientId, redirectUri, login: "ada.admin" });
    const { id_token: idToken } = await exchangeCode(request, { clientId, clientSecret, redirectUri, code });
    const res = await request.get(PLAYER, {
      headers: { Authorization: `Bearer ${idToken}`, "X-Session-ID": "another-app" },
    });
    expect(res.status()).toBe(401);
    expect(res.headers()["content-type"]).toBe("application/problem+json");
  });

  test("the back office's own ID token (an admin's, with nonce) is no API credential (401)", async ({
    page,
    request,
  }) => {
    // The test plays the back office's part (its client, a redirect URI of the test's own).
    const { clientId, clientSecret, testRedirectUri: redirectUri } = OIDC_E2E.backOffice;
    const code = await authorizationCode(page, {
      clientId,
      redirectUri,
      login: "ada.admin",
      nonce: "n-0S6_WzA2",
    });
    const { id_token: idToken } = await exchangeCode(request, { clientId, clientSecret, redirectUri, code });
    const claims = JSON.parse(Buffer.from(idToken.split(".")[1] ?? "", "base64url").toString());
    expect(claims).toMatchObject({ aud: clientId, nonce: "n-0S6_WzA2", sub: "ada.admin" });
    // Any session id: an ID token names none of the back office's sessions.
    for (const sessionId of ["any-session", "another"]) {
      const res = await request.get(`${PLAYER}/audit`, {
        headers: { Authorization: `Bearer ${idToken}`, "X-Session-ID": sessionId },
      });
      expect(res.status()).toBe(401);
      expect(res.headers()["www-authenticate"]).toContain('error="invalid_token"');
    }
  });
});
