import { expect, type Page, test } from "@playwright/test";
import type { PlayerProfileData } from "../../features/players/client/queries.ts";
import type { PortfolioData } from "../../features/portfolio/client/queries.ts";
import type { TransactionListData } from "../../features/transactions/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { formatCount, formatMoney } from "../../platform/format/money.ts";
import { apiGet, open, recordPageErrors, signIn, WHALE } from "./helpers.ts";

/*
 * Figures are written in one display locale (platform/format/locale.ts) by the server and by the browser. A browser
 * set to another locale used to format them its own way while hydrating the server's HTML: React threw the page
 * away on every load (minified error #418) and rendered it again in the browser.
 */

test.describe("a browser set to German", () => {
  test.use({ locale: "de-DE", timezoneId: "Europe/Berlin" });

  /**
   * A round trip through the page after it reported hydrated: React reports a hydration mismatch during
   * hydration, before the marker, so its error has reached the test by the time this answers.
   */
  async function settled(page: Page): Promise<void> {
    await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(resolve)));
  }

  test("the player page hydrates the server's HTML, figures as the server wrote them", async ({ page }) => {
    await signIn(page, "vip_manager");
    expect(await page.evaluate(() => navigator.language)).toBe("de-DE");
    const profile = await apiGet<PlayerProfileData>(
      page.request,
      `/players/${WHALE}`,
      WIRE_DECIMALS.playerProfile,
    );
    const balance = formatMoney(profile.balances.total_balance, profile.currency);
    const html = await (await page.request.get(`/players/${WHALE}`)).text();
    expect(html).toContain(balance);

    const overviewErrors = recordPageErrors(page);
    await open(page, `/players/${WHALE}`);
    await expect(page.getByTestId("balance-total")).toContainText(balance);
    await settled(page);
    expect(overviewErrors).toEqual([]);

    // The transactions section: its caption counts them with the display locale's grouping (24,000, not 24.000).
    const list = await apiGet<TransactionListData>(
      page.request,
      `/players/${WHALE}/transactions?limit=20`,
      WIRE_DECIMALS.transactionList,
    );
    expect(list.total).toBeGreaterThan(999);
    const transactionErrors = recordPageErrors(page);
    await open(page, `/players/${WHALE}?section=transactions`);
    await expect(page.getByRole("table", { name: /^Transactions/ })).toHaveAccessibleName(
      new RegExp(`${formatCount(list.total)} in all$`),
    );
    await settled(page);
    expect(transactionErrors).toEqual([]);
  });

  test("the portfolio hydrates the server's HTML, figures as the server wrote them", async ({ page }) => {
    await signIn(page, "vip_manager");
    const book = await apiGet<PortfolioData>(
      page.request,
      "/portfolio?manager=Sarah%20Mitchell",
      WIRE_DECIMALS.portfolio,
    );
    const first = book.players[0];
    expect(first).toBeDefined();
    const errors = recordPageErrors(page);
    await open(page, "/portfolio");
    const row = page.locator(`[data-testid="portfolio-row"][data-player-id="${first?.id}"]`);
    await expect(row.locator('[data-column="balance"]')).toHaveText(
      formatMoney(first?.total_balance ?? "", first?.currency ?? ""),
    );
    await settled(page);
    expect(errors).toEqual([]);
  });
});
