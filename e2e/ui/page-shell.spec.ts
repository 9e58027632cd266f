import { expect, test } from "@playwright/test";
import { open, signIn, WHALE } from "./helpers.ts";

test("pages load without console errors, CSP violations or failed requests; the tab has an icon", async ({
  page,
}) => {
  const problems: string[] = [];
  page.on("console", (m) => {
    if (m.type() === "error") problems.push(`console: ${m.text()}`);
  });
  // A violation the page's own code catches (zod's eval probe did) reaches no console, only this event.
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP ${e.violatedDirective} blocked ${e.blockedURI} in ${e.sourceFile}`),
    );
  });
  page.on("response", (r) => {
    if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`);
  });
  await signIn(page, "support_agent");
  await open(page, "/");
  await open(page, `/players/${WHALE}?section=transactions`);
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await open(page, `/players/${WHALE}?section=activity`);
  await expect(page.getByRole("heading", { name: /activity/i }).first()).toBeVisible();

  const icon = await page.locator('link[rel="icon"]').first().getAttribute("href");
  expect(icon).toBeTruthy();
  const response = await page.request.get(icon ?? "");
  expect(response.status()).toBe(200);
  expect(response.headers()["content-type"]).toContain("image/svg+xml");
  expect(problems).toEqual([]);
});

test("robots.txt keeps crawlers out of the back office, without signing in", async ({ request }) => {
  const response = await request.get("/robots.txt");
  expect(response.status()).toBe(200);
  expect(await response.text()).toMatch(/User-agent: \*\s+Disallow: \/\s*$/);
});
