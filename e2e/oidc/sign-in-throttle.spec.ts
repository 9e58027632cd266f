import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, test } from "@playwright/test";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";

/*
 * Password guessing over HTTP. This server has the demo accounts explicitly on and trusts 127.0.0.1 as a proxy,
 * so each test speaks from addresses of its own (X-Forwarded-For); the limit is the default: 10 failures per
 * 15 min.
 */

const LIMIT_BEFORE = 30;
/** AUTH_SIGNIN_WINDOW_SECONDS's default. */
const WINDOW_SECONDS = 15 * 60;

function account(role: "admin" | "support_agent" | "vip_manager") {
  const found = DEMO_CREDENTIALS.find((c) => c.role === role);
  if (!found) throw new Error(`no ${role} demo account`);
  return found;
}

/** One password sign-in as next-auth's client sends it; the status, and whether a session cookie came back. */
async function attempt(
  request: APIRequestContext,
  address: string,
  username: string,
  password: string,
  path = "/api/auth/callback/credentials",
): Promise<{ status: number; signedIn: boolean; body: string; retryAfter: string | undefined }> {
  const headers = { "X-Forwarded-For": address };
  const { csrfToken } = await (await request.get("/api/auth/csrf", { headers })).json();
  const res = await request.post(path, {
    headers,
    form: { username, password, csrfToken, callbackUrl: "/", json: "true" },
    maxRedirects: 0,
  });
  const signedIn = res.headersArray().some((h) => /^next-auth\.session-token=[^;]/.test(h.value));
  return { status: res.status(), signedIn, body: await res.text(), retryAfter: res.headers()["retry-after"] };
}

/** Wrong passwords until a 429; the number of attempts it took. */
async function guessUntilRefused(
  request: APIRequestContext,
  next: (i: number) => { address: string; username: string; path?: string },
): Promise<number> {
  for (let i = 1; i <= LIMIT_BEFORE; i++) {
    const { address, username, path } = next(i);
    const result = await attempt(request, address, username, `wrong-password-${i}`, path);
    expect(result.signedIn).toBe(false);
    if (result.status === 429) {
      const problem = JSON.parse(result.body);
      expect(problem).toMatchObject({
        status: 429,
        url: expect.stringContaining("TooManyAttempts"),
      });
      // When to try again: whole seconds within the window (15 min), the same figure the detail gives.
      expect(result.retryAfter).toMatch(/^[1-9]\d*$/);
      expect(Number(result.retryAfter)).toBeLessThanOrEqual(WINDOW_SECONDS);
      expect(problem.detail).toContain(`try again in ${result.retryAfter} s`);
      return i;
    }
  }
  return Number.POSITIVE_INFINITY;
}

test.describe("password sign-in throttle", () => {
  test("wrong passwords for one account from many addresses get 429; other accounts still sign in", async ({
    request,
    page,
  }) => {
    const admin = account("admin");
    const refusedAt = await guessUntilRefused(request, (i) => ({
      address: `198.51.100.${i}`,
      username: admin.username,
    }));
    expect(refusedAt).toBeLessThan(LIMIT_BEFORE);
    // Even the right password waits now, from a fresh address too.
    expect((await attempt(request, "198.51.100.200", admin.username, admin.password)).status).toBe(429);
    // The form says why, in the browser too.
    await page.goto("/sign-in");
    await page.getByLabel("Username").fill(admin.username);
    await page.getByLabel("Password").fill(admin.password);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("#main").getByRole("alert")).toContainText("Too many failed sign-ins");
    await expect(page).toHaveURL(/\/sign-in$/);
    const vip = account("vip_manager");
    expect(await attempt(request, "198.51.100.201", vip.username, vip.password)).toMatchObject({
      signedIn: true,
    });
  });

  test("wrong passwords from one address for many accounts get 429; other addresses still sign in", async ({
    request,
  }) => {
    const refusedAt = await guessUntilRefused(request, (i) => ({
      address: "203.0.113.7",
      username: `guess-${i}`,
    }));
    expect(refusedAt).toBeLessThan(LIMIT_BEFORE);
    const agent = account("support_agent");
    expect((await attempt(request, "203.0.113.7", agent.username, agent.password)).status).toBe(429);
    expect(await attempt(request, "203.0.113.8", agent.username, agent.password)).toMatchObject({
      status: 200,
      signedIn: true,
    });
  });

  test("a path next-auth serves with an extra segment is counted like the sign-in path", async ({
    request,
  }) => {
    // next-auth reads only the first two segments: /callback/credentials/x checks the password too.
    const refusedAt = await guessUntilRefused(request, (i) => ({
      address: "192.0.2.31",
      username: `segment-${i}`,
      path: "/api/auth/callback/credentials/x",
    }));
    expect(refusedAt).toBeLessThan(LIMIT_BEFORE);
  });

  test("40 concurrent wrong passwords for one account: 10 are checked, the others refused with 429", async ({
    request,
  }) => {
    // Before, each was checked against the count before any of them had failed: all 40 got 401.
    const username = `burst-${randomUUID()}`;
    // One CSRF token for all: fetched per attempt, each would replace the cookie of the ones in flight.
    const { csrfToken } = await (await request.get("/api/auth/csrf")).json();
    const results = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        request.post("/api/auth/callback/credentials", {
          headers: { "X-Forwarded-For": `192.0.2.${100 + i}` },
          form: { username, password: `wrong-${i}`, csrfToken, callbackUrl: "/", json: "true" },
          maxRedirects: 0,
        }),
      ),
    );
    const statuses = results.map((r) => r.status());
    expect(statuses.filter((s) => s === 401)).toHaveLength(10);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
  });
});
