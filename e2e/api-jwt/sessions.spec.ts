import { expect, test } from "@playwright/test";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";
import { type AppProcess, startApp } from "../../test/support/app-process.ts";
import { passwordSignIn, type SessionClient } from "../../test/support/session-client.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";

/*
 * Server-side sign-in sessions over real HTTP: an AUTH_MODE=jwt server on the PostgreSQL test database with the
 * demo accounts on and a 20-second absolute session lifetime, started by the launcher on E2E_JWT_PORT + 45.
 * Each test signs in with a password and plays the attacker with a copy of the cookie.
 */
const DATABASE_URL = process.env.E2E_POSTGRES_URL;
test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");
test.describe.configure({ mode: "serial", timeout: 120_000 });

const PORT = Number(process.env.E2E_JWT_PORT ?? 3103) + 45;
const LIFETIME_S = 20;
const PROFILE = `/api/v1/players/${FIXTURE_PLAYER_ID}`;
const admin = DEMO_CREDENTIALS.find((c) => c.role === "admin") ?? DEMO_CREDENTIALS[0];
let app: AppProcess;

test.beforeAll(async () => {
  app = await startApp(PORT, {
    DATABASE_URL: DATABASE_URL as string,
    AUTH_MODE: "jwt",
    AUTH_JWT_SECRET: "sessions-e2e-api-token-secret-0123456789abcdef",
    AUTH_DEMO_USERS: "on",
    AUTH_SESSION_MAX_AGE_SECONDS: String(LIFETIME_S),
    NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
    LOG_LEVEL: "warn",
    RATE_LIMIT_MAX: "1000000",
  });
});
test.afterAll(async () => {
  await app?.stop();
});

const signIn = () => passwordSignIn(app.url, admin as { username: string; password: string });

/** A profile read with an API token, as the pages make it. */
async function read(client: SessionClient, token: string, sessionId: string): Promise<number> {
  const res = await client.fetch(PROFILE, {
    headers: { Authorization: `Bearer ${token}`, "X-Session-ID": sessionId },
  });
  await res.body?.cancel();
  return res.status;
}

/** What this cookie gets from every path that trusts it (each asked with a copy: a refusal drops the cookie). */
async function cookieReach(client: SessionClient) {
  const page = await client.copy().fetch("/");
  await page.body?.cancel();
  const session = await (await client.copy().fetch("/api/auth/session")).json();
  return { token: (await client.copy().apiCredentials()).status, page: page.status, session };
}

for (const [how, signOut] of [
  [
    "the sign-out button (POST /api/auth/end-session)",
    (c: SessionClient) => c.signOut().then(() => undefined),
  ],
  [
    "next-auth's own sign-out (POST /api/auth/signout)",
    async (c: SessionClient) => {
      const { csrfToken } = (await (await c.fetch("/api/auth/csrf")).json()) as { csrfToken: string };
      const res = await c.fetch("/api/auth/signout", {
        method: "POST",
        body: new URLSearchParams({ csrfToken, callbackUrl: "/sign-in", json: "true" }),
      });
      await res.body?.cancel();
    },
  ],
] as const) {
  test(`a cookie copied before sign-out by ${how} mints no API token after it, and earlier tokens stop`, async () => {
    const user = await signIn();
    const stolen = user.copy();
    const before = await stolen.apiCredentials();
    expect(before.status).toBe(200);
    expect(await read(stolen, before.token as string, before.sessionId as string)).toBe(200);

    await signOut(user);
    expect(user.sessionCookie).toBeUndefined();
    expect(await cookieReach(stolen)).toEqual({ token: 401, page: 307, session: {} });
    // The token minted before sign-out, still unexpired: refused too.
    expect(await read(stolen, before.token as string, before.sessionId as string)).toBe(401);
  });
}

test(`a session ends ${LIFETIME_S} s after sign-in however active it is, with every cookie and token of it`, async () => {
  const signedInBy = Date.now();
  const user = await signIn();
  const signedInAfter = Date.now();
  const first = user.copy();
  // The end the server gave the session (whole seconds): LIFETIME_S after a moment within the sign-in, whatever
  // the machine's pace. Every later answer is checked against it, not against this process's clock.
  const endsAt = Date.parse((await (await user.fetch("/api/auth/session")).json()).expires);
  expect(endsAt).toBeGreaterThanOrEqual(signedInBy + LIFETIME_S * 1000 - 1000);
  expect(endsAt).toBeLessThanOrEqual(signedInAfter + LIFETIME_S * 1000);
  let last: Awaited<ReturnType<SessionClient["apiCredentials"]>> = { status: 0 };
  let reads = 0;
  // Busy all along: next-auth's session endpoint re-issues the cookie on each call, as it used to for 8 h more.
  while (Date.now() < endsAt - 5_000) {
    const session = await (await user.fetch("/api/auth/session")).json();
    expect(session.user?.role).toBe("admin");
    expect(Date.parse(session.expires)).toBe(endsAt);
    last = await user.apiCredentials();
    expect(last.status).toBe(200);
    // No token outlives its session.
    expect(last.expiresAt).toBeLessThanOrEqual(endsAt / 1000);
    expect(await read(user, last.token as string, last.sessionId as string)).toBe(200);
    reads++;
    await new Promise((resolve) => setTimeout(resolve, 1_500));
  }
  expect(reads, "the session was used while it lasted").toBeGreaterThan(0);
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, endsAt + 2_000 - Date.now())));
  for (const client of [user, first]) {
    expect(await cookieReach(client)).toEqual({ token: 401, page: 307, session: {} });
  }
  expect(await read(first, last.token as string, last.sessionId as string)).toBe(401);
});

test("sign-out answers where to go, never an ID token; a cross-site request or GET is refused", async () => {
  const user = await signIn();
  const notFromItsPages: Record<string, string>[] = [
    { Origin: "https://evil.example" },
    { Origin: "https://evil.example", "Sec-Fetch-Site": "cross-site" },
    { "Sec-Fetch-Site": "same-site" },
    {},
  ];
  for (const headers of notFromItsPages) {
    const crossSite = await user.fetch("/api/auth/end-session", { method: "POST", headers });
    expect(crossSite.status, JSON.stringify(headers)).toBe(400);
    expect(await crossSite.json()).toMatchObject({ errors: [{ name: "Origin", in: "header" }] });
  }
  expect((await user.apiCredentials()).status).toBe(200);
  const get = await user.fetch("/api/auth/end-session");
  expect(get.status).toBe(405);
  await get.body?.cancel();

  const { status, body } = await user.signOut();
  expect(status).toBe(200);
  // A demo account's session: straight to the sign-in page.
  expect(body).toEqual({ url: "/sign-in" });
});
