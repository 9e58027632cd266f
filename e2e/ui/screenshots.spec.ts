import path from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import { open, signIn, visibleTransactions, WHALE } from "./helpers.ts";

/*
 * Screenshots of the main pages at a laptop (1280 px) and a phone (390 px) width, kept as test
 * artifacts in test-results/screenshots/ and attached to the HTML report. Each page is also checked
 * for sideways overflow: at 390 px nothing but the table's own scroll region may be wider than the screen.
 */
const WIDTHS = [
  { name: "desktop", width: 1280, height: 800 },
  { name: "mobile", width: 390, height: 844 },
] as const;

async function capture(page: Page, testInfo: TestInfo, name: string): Promise<void> {
  const file = path.join(testInfo.project.outputDir, "screenshots", `${name}.png`);
  const body = await page.screenshot({ path: file, fullPage: true });
  await testInfo.attach(name, { body, contentType: "image/png" });
}

async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const size of WIDTHS) {
  test.describe(`at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("sign-in page", async ({ page }, testInfo) => {
      await open(page, "/sign-in");
      await expect(page.getByRole("heading", { name: "Demo accounts" })).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `sign-in-${size.name}`);
    });

    test("player lookup with results", async ({ page }, testInfo) => {
      await signIn(page);
      await open(page, "/?q=silva");
      await expect(page.getByRole("option").first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `lookup-${size.name}`);
    });

    test("player profile", async ({ page }, testInfo) => {
      await signIn(page);
      await open(page, `/players/${WHALE}`);
      await expect(page.getByTestId("player-name")).toBeVisible();
      await expect(visibleTransactions(page).first()).toBeVisible();
      await expect(
        page.getByTestId("activity-chart").locator(".recharts-bar-rectangle").first(),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-${size.name}`);
    });

    test("filtered transactions", async ({ page }, testInfo) => {
      await signIn(page);
      await open(page, `/players/${WHALE}?event_type=deposit&event_type=withdrawal&page=2&per_page=10`);
      await expect(visibleTransactions(page)).toHaveCount(10);
      await page.getByRole("heading", { name: "Transactions", exact: true }).scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `transactions-${size.name}`);
    });
  });
}
