import { expect, type Locator, type Page, test } from "@playwright/test";
import type { PlayerSearchData } from "../../features/players/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { apiGet, expectNoSidewaysScroll, open, signIn, WHALE } from "./helpers.ts";

/*
 * At a phone's width (390 × 844) the audit trails are stacked cards, not a table scrolling sideways, and the
 * activity chart's tooltip stays on the screen wherever the user touches the chart.
 */
test.use({ viewport: { width: 390, height: 844 } });
test.setTimeout(150_000);

/** Every part of the element lies inside the 390 px wide screen. */
async function expectOnScreen(locator: Locator) {
  const box = await locator.boundingBox();
  expect(box).not.toBeNull();
  expect(box?.x ?? -1).toBeGreaterThanOrEqual(0);
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
}

async function expectStackedEntries(page: Page, region: Locator) {
  const entries = region.getByTestId("audit-entry");
  await expect(entries.first()).toBeVisible();
  await expect(region.getByRole("table")).toHaveCount(0);
  // Each card names its values: the table's column headings become labels.
  const first = entries.first();
  for (const label of ["When", "Who", "What", "Session", "Request id"]) {
    await expect(first.getByRole("term").filter({ hasText: new RegExp(`^${label}$`) })).toBeVisible();
  }
  await expectOnScreen(first);
  await expectNoSidewaysScroll(page);
}

test("the admins' audit page lists entries as cards, and a page view's reads open inside its card", async ({
  page,
}) => {
  await signIn(page, "admin");
  for (const id of ["P000042", "P000043"]) await open(page, `/players/${id}`);
  await open(page, "/audit");
  const region = page.getByRole("region", { name: /Reads of player data/ });
  await expect(async () => {
    await page.reload();
    await expect(region.getByTestId("audit-entry").first()).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  await expectStackedEntries(page, region);
  // Across players, each card names its player.
  const player = region
    .getByTestId("audit-entry")
    .first()
    .getByRole("term")
    .filter({ hasText: /^Player$/ });
  await expect(player).toBeVisible();

  const firstExpander = region.getByRole("button", { name: /Show the \d+ reads/ }).first();
  await expect(firstExpander).toBeVisible({ timeout: 30_000 });
  // Pinned by what it controls: its name changes to "Hide …" once clicked.
  const controls = await firstExpander.getAttribute("aria-controls");
  const expander = region.locator(`button[aria-controls="${controls}"]`);
  const card = region
    .getByTestId("audit-entry")
    .filter({ has: page.locator(`button[aria-controls="${controls}"]`) });
  const count = Number((await expander.textContent())?.match(/\d+/)?.[0] ?? 0);
  await expander.click();
  await expect(expander).toHaveAttribute("aria-expanded", "true");
  const reads = card.getByTestId("audit-read");
  await expect(reads).toHaveCount(count);
  // Each read names its operation and request id; the reader and session are the card's.
  await expect(
    reads
      .first()
      .getByRole("term")
      .filter({ hasText: /^Request id$/ }),
  ).toBeVisible();
  await expect(reads.first().getByRole("term").filter({ hasText: /^Who$/ })).toHaveCount(0);
  await expectOnScreen(reads.first());
  await expectNoSidewaysScroll(page);
});

test("a player's audit section lists entries as cards", async ({ page }) => {
  await signIn(page, "admin");
  await open(page, "/players/P000042");
  await open(page, "/players/P000042?section=audit");
  const region = page.getByRole("region", { name: /Reads of player P000042's data/ });
  await expect(async () => {
    await page.reload();
    await expect(region.getByTestId("audit-entry").first()).toBeVisible({ timeout: 10_000 });
  }).toPass({ timeout: 90_000 });
  await expectStackedEntries(page, region);
  // The player is the page's: no Player label in its cards.
  await expect(region.getByRole("term").filter({ hasText: /^Player$/ })).toHaveCount(0);
});

test("a laptop still gets the table", async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "admin");
  await open(page, "/players/P000042");
  await open(page, "/audit");
  const region = page.getByRole("region", { name: /Reads of player data/ });
  await expect(region.getByRole("table")).toBeVisible({ timeout: 60_000 });
  await expect(region.getByRole("columnheader", { name: "Request id" })).toBeVisible();
});

test("the activity chart's tooltip stays on the screen at either end of the chart, for long and short amounts", async ({
  page,
}) => {
  await signIn(page, "vip_manager");
  const list = await apiGet<PlayerSearchData>(page.request, "/players?limit=100", WIRE_DECIMALS.playerSearch);
  // The whale (CAD, thousands a month) and a BTC player (eight decimals).
  const btc = list.players.find((p) => p.currency === "BTC" && Number(p.total_balance) !== 0);
  expect(btc).toBeDefined();
  for (const id of [WHALE, btc?.id ?? ""]) {
    await open(page, `/players/${id}?section=activity`);
    const chart = page.getByTestId("activity-chart");
    await chart.scrollIntoViewIfNeeded();
    const plot = chart.locator(".recharts-cartesian-grid");
    await expect(plot).toBeVisible();
    const area = await plot.boundingBox();
    expect(area).not.toBeNull();
    if (!area) return;
    const tooltip = chart.locator(".recharts-tooltip-wrapper");
    // The first month, the middle and the last: the tooltip shows for a month with no activity too.
    for (const fraction of [0.03, 0.5, 0.97]) {
      await page.mouse.move(area.x + area.width * fraction, area.y + area.height * 0.9);
      await expect(tooltip.getByText("Withdrawals")).toBeVisible();
      // Recharts moves the box as the pointer moves: wait for it to settle before measuring.
      await expect(() => expectOnScreen(tooltip)).toPass({ timeout: 5_000 });
      // Every amount is shown whole, not cut by the card's edge: the four series, and net deposits and GGR
      // for a month with activity.
      const amounts = tooltip.locator("dd");
      await expect(amounts.nth(3)).toBeVisible();
      expect([4, 6]).toContain(await amounts.count());
      for (const amount of await amounts.all()) await expectOnScreen(amount);
      const shot = `test-results/phone-shots/chart-tooltip-${id}-${Math.round(fraction * 100)}.png`;
      await page.screenshot({ path: shot });
    }
    await expectNoSidewaysScroll(page);
  }
});
