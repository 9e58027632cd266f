import { expect, test } from "@playwright/test";
import { decodeJwt } from "jose";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";
import { ROLE_LABELS } from "../../platform/auth/roles.ts";
import { open, ready, signIn, signInWithForm, WHALE } from "./helpers.ts";

test.describe("signing in and out", () => {
  test("a page without a session goes to sign-in, and back to the same view after signing in", async ({
    page,
  }) => {
    const target = `/players/${WHALE}?event_type=bet&page=2`;
    await open(page, target);
    await expect(page).toHaveURL(/\/sign-in\?/);
    expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(target);

    // The demo credentials are written on the page.
    const accounts = page.getByTestId("demo-accounts");
    for (const c of DEMO_CREDENTIALS) {
      await expect(accounts).toContainText(c.username);
      await expect(accounts).toContainText(c.password);
      await expect(accounts).toContainText(ROLE_LABELS[c.role]);
    }

    await signInWithForm(page, "vip_manager");
    await expect(page).toHaveURL((url) => `${url.pathname}${url.search}` === target);
    await expect(page.getByTestId("player-name")).toBeVisible();
    await expect(page.getByRole("button", { name: "Event type: Bet" })).toBeVisible();
  });

  test("the lookup page and the token endpoint need a session too", async ({ page }) => {
    await open(page, "/");
    await expect(page).toHaveURL(/\/sign-in$/);
    const token = await page.request.get("/api/session/token");
    expect(token.status()).toBe(401);
    expect(token.headers()["content-type"]).toContain("application/problem+json");
  });

  test("a wrong password is refused with a message", async ({ page }) => {
    await open(page, "/sign-in");
    await page.getByLabel("Username").fill("support.agent");
    await page.getByLabel("Password").fill("not-the-password");
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page.locator("#main").getByRole("alert")).toHaveText(
      "That username and password do not match a demo account.",
    );
    await expect(page).toHaveURL(/\/sign-in$/);
    expect((await page.request.get("/api/session/token")).status()).toBe(401);
  });

  test("before its JavaScript has run, the form is disabled instead of losing what the user typed or clicked", async ({
    page,
  }) => {
    // Hold every script until the server's HTML is on screen, as on a slow machine.
    let release: () => void = () => {};
    const released = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/_next/static/chunks/**", async (route) => {
      await released;
      await route.continue();
    });
    await page.goto("/sign-in", { waitUntil: "commit" });
    await expect(page.getByLabel("Username")).toBeDisabled();
    await expect(page.getByLabel("Password")).toBeDisabled();
    await expect(page.getByRole("button", { name: "Use the Admin demo account" })).toBeDisabled();

    release();
    await page.getByRole("button", { name: "Use the Admin demo account" }).click();
    await expect(page.getByLabel("Username")).toHaveValue("admin");
    await page.getByLabel("Password").press("Enter");
    await expect(page.getByTestId("signed-in-user")).toContainText("Admin");
  });

  test("choosing a demo account fills in the form", async ({ page }) => {
    await open(page, "/sign-in");
    await page.getByRole("button", { name: "Use the Admin demo account" }).click();
    await expect(page.getByLabel("Username")).toHaveValue("admin");
    await expect(page.getByLabel("Password")).toHaveValue(
      DEMO_CREDENTIALS.find((c) => c.role === "admin")?.password ?? "",
    );
    await page.getByLabel("Password").press("Enter");
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId("signed-in-user")).toContainText("Admin");
  });

  for (const { role } of DEMO_CREDENTIALS) {
    test(`the ${ROLE_LABELS[role]} signs in and out`, async ({ page }) => {
      await open(page, "/sign-in");
      await signInWithForm(page, role);
      await expect(page.getByRole("heading", { name: "Player lookup" })).toBeVisible();
      await expect(page.getByTestId("signed-in-user")).toContainText(ROLE_LABELS[role]);

      await ready(page);
      await page.getByRole("button", { name: "Sign out" }).click();
      await expect(page).toHaveURL(/\/sign-in$/);
      await open(page, `/players/${WHALE}`);
      await expect(page).toHaveURL(/\/sign-in\?callbackUrl=/);
      expect((await page.request.get("/api/session/token")).status()).toBe(401);
    });
  }

  test("API calls carry the app-issued short-lived token and the sign-in session's id", async ({ page }) => {
    await signIn(page, "admin");
    const call = page.waitForRequest((r) => new URL(r.url()).pathname === `/api/v1/players/${WHALE}`);
    // tz=local: the one view the server does not render first (its days depend on the browser's zone), so the
    // browser reads the profile itself.
    await open(page, `/players/${WHALE}?tz=local`);
    const headers = await (await call).allHeaders();
    const session = (await (await page.request.get("/api/auth/session")).json()) as {
      user: { id: string; role: string };
      sessionId: string;
    };
    expect(headers.authorization).toMatch(/^Bearer [\w-]+\.[\w-]+\.[\w-]+$/);
    const claims = decodeJwt(headers.authorization?.slice("Bearer ".length) ?? "");
    expect(claims).toMatchObject({ sub: session.user.id, role: "admin", sid: session.sessionId });
    expect((claims.exp ?? 0) - (claims.iat ?? 0)).toBeLessThanOrEqual(600);
    expect(headers["x-session-id"]).toBe(session.sessionId);
    expect(headers["x-request-id"]).toMatch(/^[0-9a-f-]{36}$/);
  });

  test("each sign-in is its own session", async ({ browser }) => {
    const ids: string[] = [];
    for (let i = 0; i < 2; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      await signIn(page, "support_agent");
      ids.push(
        ((await (await page.request.get("/api/auth/session")).json()) as { sessionId: string }).sessionId,
      );
      await context.close();
    }
    expect(ids[0]).toBeTruthy();
    expect(ids[0]).not.toBe(ids[1]);
  });

  test("a callbackUrl that leaves this site is not followed, by the form or for a signed-in user", async ({
    page,
    baseURL,
  }) => {
    const home = `${new URL(baseURL ?? "").origin}/`;
    // Browsers drop the tab: the form went to //evil.example/phish after signing in (another host).
    await open(page, "/sign-in?callbackUrl=/%09/evil.example/phish");
    await signInWithForm(page, "support_agent");
    await expect(page).toHaveURL(home);
    for (const callback of ["/%09/evil.example/phish", "/.//evil.example", "/%0A/evil.example", "/%0D/x"]) {
      // Signed in, the page redirects at once; CR and LF in the Location header answered 500.
      const res = await page.request.get(`/sign-in?callbackUrl=${callback}`, { maxRedirects: 0 });
      expect(res.status(), callback).toBe(307);
      expect(res.headers().location, callback).toBe("/");
      await page.goto(`/sign-in?callbackUrl=${callback}`);
      await expect(page).toHaveURL(home);
    }
  });
});
