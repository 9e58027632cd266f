import { expect, test } from "@playwright/test";
import type { PlayerSearchData } from "../../features/players/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { apiGet, open, signIn } from "./helpers.ts";

/*
 * Screenshots of the lookup states, the not-found page and the activity chart for four currencies, at desktop
 * and phone sizes, to be looked at (written to test-results/lookup-shots/). Each also checks what it shows.
 */
const DIR = "test-results/lookup-shots";

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 390, height: 844 },
]) {
  test.describe(`lookup screenshots at ${viewport.width} px`, () => {
    test.use({ viewport });
    const shot = (name: string) => ({ path: `${DIR}/${name}-${viewport.width}.png`, fullPage: true });

    test("lookup: results, empty, e-mail notice, my players, not found", async ({ page }) => {
      await signIn(page, "support_agent");
      await open(page, "/?q=silva");
      await expect(page.getByRole("option").first()).toBeVisible();
      await page.screenshot(shot("lookup-results"));
      await open(page, "/?q=zz-nobody-zz");
      await expect(page.getByText(/No player has an id/)).toBeVisible();
      await page.screenshot(shot("lookup-empty"));
      await open(page, "/?q=zoe.cote7%40");
      await expect(page.getByTestId("contact-exact-notice")).toBeVisible();
      await page.screenshot(shot("lookup-email-notice"));
      await open(page, "/no-such-page");
      await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
      await page.screenshot(shot("not-found"));
      await signIn(page, "vip_manager");
      await open(page, "/?view=mine");
      await expect(
        page.getByRole("listbox", { name: "My players" }).getByRole("option").first(),
      ).toBeVisible();
      await page.screenshot(shot("lookup-my-players"));
    });

    test("activity chart for a BTC, an ETH, a JPY and a GBP player", async ({ page }) => {
      await signIn(page, "vip_manager");
      const list = await apiGet<PlayerSearchData>(
        page.request,
        "/players?limit=100",
        WIRE_DECIMALS.playerSearch,
      );
      for (const currency of ["BTC", "ETH", "JPY", "GBP"]) {
        const player = list.players.find((p) => p.currency === currency && Number(p.total_balance) !== 0);
        expect(player, currency).toBeDefined();
        await open(page, `/players/${player?.id}?section=activity`);
        const chart = page.getByTestId("activity-chart");
        await chart.scrollIntoViewIfNeeded();
        await expect(chart.locator(".recharts-cartesian-axis-tick-value").first()).toBeVisible();
        const ticks = await chart
          .locator(".recharts-yAxis .recharts-cartesian-axis-tick-value")
          .allTextContents();
        // Every tick label differs from the next: no axis of "0"s.
        expect(new Set(ticks).size, ticks.join(" | ")).toBe(ticks.length);
        // Hover the newest month with bars, to show the tooltip.
        const bar = chart.locator(".recharts-bar-rectangle").last();
        // A bar a few pixels wide can be covered at 390 px: the tooltip is nice to see, not what is checked.
        if ((await bar.count()) > 0) await bar.hover({ force: true, timeout: 5_000 }).catch(() => undefined);
        await chart
          .locator("..")
          .locator("..")
          .screenshot({ path: `${DIR}/chart-${currency}-${viewport.width}.png` });
      }
    });
  });
}
