import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { type AppProcess, startApp, trustPorts } from "../../test/support/app-process.ts";
import { ready, signInWithForm, WHALE } from "../ui/helpers.ts";

/*
 * The README's first command, `npm run dev`, as a newcomer meets it: the development server on a fresh embedded
 * database with the demo data, signed in with a demo account. Every other UI test runs the production build;
 * development renders differently (next/dynamic adds layers there), and a page that hydrated cleanly in
 * production logged a hydration error here.
 */
test.use({
  launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] },
});

const { appBase } = trustPorts();
let app: AppProcess | undefined;
let dir: string | undefined;

test.afterAll(async () => {
  await app?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

test("npm run dev: the player page opened on each section hydrates without a console error", async ({
  page,
}) => {
  // The development server compiles each page on its first request: minutes on a loaded 2-core machine.
  test.setTimeout(420_000);
  dir = mkdtempSync(path.join(tmpdir(), "par-dev-"));
  // No DATABASE_URL and no AUTH_MODE: the quick start's embedded database and demo sign-in.
  app = await startApp(
    appBase + 11,
    { EMBEDDED_DB_DIR: path.join(dir, "pglite") },
    {
      mode: "dev",
      startTimeoutMs: 180_000,
    },
  );
  // The development server gets the stamp and the security headers before its first request too.
  expect(app.firstAnswer.headers["content-security-policy"]).toBe(
    "default-src 'none'; frame-ancestors 'none'; sandbox",
  );
  const signInPage = await page.request.get(`${app.url}/sign-in`);
  expect(signInPage.headers()["content-security-policy"]).toContain("'unsafe-eval'");
  expect(signInPage.headers()["x-frame-options"]).toBe("DENY");
  const errors: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") errors.push(m.text());
  });
  page.on("pageerror", (e) => errors.push(e.message));

  await page.goto(`${app.url}/sign-in`);
  await signInWithForm(page, "vip_manager");
  await page.waitForURL((url) => !url.pathname.startsWith("/sign-in"), { timeout: 120_000 });

  for (const section of ["transactions", "overview"]) {
    await page.goto(`${app.url}/players/${WHALE}?section=${section}`, { timeout: 120_000 });
    await ready(page);
    await expect(page.getByRole("tab", { name: new RegExp(section, "i") })).toHaveAttribute(
      "aria-selected",
      "true",
    );
  }
  expect(errors).toEqual([]);
});
