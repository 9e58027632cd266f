import { expect, test } from "@playwright/test";
import { capture, expectNoSidewaysScroll, open, signIn, visibleTransactions, WHALE } from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * Screenshots of the main pages at a desktop (1440 × 900) and a phone (390 px) width, kept as test
 * artifacts in test-results/screenshots/ and attached to the HTML report. Each page is also checked
 * for sideways overflow: at 390 px nothing but the table's own scroll region may be wider than the screen.
 */
for (const size of SIZES) {
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

    test("player profile: every section, also scrolled under the sticky header", async ({
      page,
    }, testInfo) => {
      await signIn(page, "admin");
      await open(page, `/players/${WHALE}`);
      await expect(page.getByTestId("kpi-ltd")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-overview-${size.name}`);
      await page.evaluate(() => window.scrollTo(0, 600));
      await capture(page, testInfo, `profile-overview-scrolled-${size.name}`, false);
      // The period summary under the sticky header, as the screen shows it.
      await page.getByRole("region", { name: "Summary" }).getByRole("radio", { name: "All time" }).check();
      await expect(page.getByTestId("period-summary")).toHaveAttribute("data-period", "all");
      await page.getByRole("heading", { name: "Summary" }).evaluate((el) => {
        window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 220);
      });
      await capture(page, testInfo, `profile-summary-${size.name}`, false);

      await page.getByRole("tab", { name: "Transactions" }).click();
      await expect(visibleTransactions(page).first()).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-transactions-${size.name}`, false);

      await page.getByRole("tab", { name: "Activity" }).click();
      await expect(
        page.getByTestId("activity-chart").locator(".recharts-bar-rectangle").first(),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-activity-${size.name}`);

      await page.getByRole("tab", { name: "Audit" }).click();
      await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
      await expect(
        page.getByRole("region", { name: "Audit trail" }).getByTestId("audit-entry").first(),
      ).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-audit-${size.name}`);
    });

    test("player profile of a blocked player, as a support agent (masked contact)", async ({
      page,
    }, testInfo) => {
      await signIn(page, "support_agent");
      await open(page, "/players/P000017");
      await expect(page.getByTestId("kpi-ltd")).toBeVisible();
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `profile-blocked-${size.name}`, false);
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
