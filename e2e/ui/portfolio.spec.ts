import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { sortPortfolio } from "../../features/portfolio/client/portfolio-view.ts";
import type { PortfolioData } from "../../features/portfolio/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import {
  apiGet,
  capture,
  expectNoSidewaysScroll,
  open,
  seriousViolations,
  signIn,
  WHALE,
} from "./helpers.ts";

/*
 * The portfolio (/portfolio, "My players"): a VIP manager's book at a laptop and a phone size, sorting and the flag
 * filter in the URL (shared, reloaded, Back), the flags explained on hover and focus, the keyboard, an admin's
 * choice of manager, the empty and error states, the 403 for a support agent; axe and screenshots.
 */

const DESKTOP = { width: 1440, height: 900 };
const PHONE = { width: 390, height: 844 };

const tableRows = (page: Page) => page.getByTestId("portfolio-row");
const cards = (page: Page) => page.getByTestId("portfolio-card");
const ids = async (rows: ReturnType<typeof tableRows>) =>
  rows.evaluateAll((els) => els.map((e) => e.getAttribute("data-player-id") ?? ""));

test.describe("the portfolio", () => {
  test.setTimeout(150_000);

  test("a VIP manager opens My players; sorting and the flag filter live in the URL", async ({
    page,
    browser,
  }, testInfo) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "vip_manager");
    await open(page, "/");
    await page.getByRole("banner").getByRole("link", { name: "My players" }).click();
    await expect(page).toHaveURL(/\/portfolio$/);
    await expect(page.getByRole("heading", { name: "My players", level: 1 })).toBeVisible();
    const book = await apiGet<PortfolioData>(
      page.request,
      "/portfolio?manager=Sarah%20Mitchell",
      WIRE_DECIMALS.portfolio,
    );
    await expect(tableRows(page)).toHaveCount(book.players.length);
    await expect(page.locator(`[data-testid="portfolio-row"][data-player-id="${WHALE}"]`)).toBeVisible();
    // The default order: flagged players first.
    expect(await ids(tableRows(page))).toEqual(sortPortfolio(book.players, "flags", "desc").map((p) => p.id));
    expect(await seriousViolations(page)).toEqual([]);
    // All ten columns in view at 1440 px (the page takes up to 96rem), the last one without scrolling sideways.
    const region = page.getByRole("region", { name: /players: / });
    expect(await region.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(0);
    await expect(
      page.getByRole("columnheader", { name: "Sort by days since the last activity" }),
    ).toBeInViewport({ ratio: 1 });
    await capture(page, testInfo, "portfolio-1440");

    // Sort by balance (exact decimal order), then the other way.
    await page.getByRole("button", { name: "Sort by balance" }).click();
    await expect(page).toHaveURL(/sort=balance/);
    await expect(page.getByRole("columnheader", { name: "Sort by balance" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    expect(await ids(tableRows(page))).toEqual(
      sortPortfolio(book.players, "balance", "desc").map((p) => p.id),
    );
    await page.getByRole("button", { name: "Sort by balance" }).click();
    await expect(page).toHaveURL(/dir=asc/);
    expect(await ids(tableRows(page))).toEqual(
      sortPortfolio(book.players, "balance", "asc").map((p) => p.id),
    );

    // Filter by a flag: only its players, said in words.
    await page.getByTestId("flag-filter-churn_risk").click();
    await expect(page).toHaveURL(/flag=churn_risk/);
    const churned = book.players.filter((p) => p.flags.includes("churn_risk"));
    await expect(tableRows(page)).toHaveCount(churned.length);
    await expect(page.getByTestId("portfolio-count")).toHaveText(
      `${churned.length} of ${book.players.length} players`,
    );
    await expect(page.getByTestId("flag-filter-churn_risk")).toHaveAttribute("aria-pressed", "true");

    // Reload and a shared link restore the same view; Back undoes the filter.
    const shared = page.url();
    await page.reload();
    await expect(tableRows(page)).toHaveCount(churned.length);
    const other = await browser.newPage({ viewport: DESKTOP });
    await signIn(other, "vip_manager");
    await open(other, shared);
    await expect(tableRows(other)).toHaveCount(churned.length);
    expect(await ids(tableRows(other))).toEqual(sortPortfolio(churned, "balance", "asc").map((p) => p.id));
    await other.close();
    await page.goBack();
    await expect(page).not.toHaveURL(/flag=/);
    await expect(tableRows(page)).toHaveCount(book.players.length);
  });

  test("flags explain themselves on hover and on keyboard focus; headings sort from the keyboard", async ({
    page,
  }) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "vip_manager");
    await open(page, "/portfolio");
    const badge = page.getByTestId("portfolio-row").locator('[data-flag="pending_withdrawal_24h"]').first();
    const tip = page.getByRole("tooltip", { name: /still pending/ }).first();
    await badge.hover();
    await expect(badge).toHaveAccessibleDescription(/requested more than 24 hours ago is still pending/);
    await expect(tip).toBeVisible();
    await page.mouse.move(0, 0);
    await expect(tip).toBeHidden();
    await badge.focus();
    await expect(tip).toBeVisible();
    await page.keyboard.press("Escape");
    await expect(tip).toBeHidden();
    // Enter on a focused badge filters by its flag.
    await badge.focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/flag=pending_withdrawal_24h/);

    await page.getByRole("button", { name: "Sort by player name" }).focus();
    await page.keyboard.press("Enter");
    await expect(page).toHaveURL(/sort=player/);
    await expect(page.getByRole("columnheader", { name: "Sort by player name" })).toHaveAttribute(
      "aria-sort",
      "ascending",
    );
    await page.keyboard.press("Space");
    // Descending is the default direction: it leaves the URL.
    await expect(page.getByRole("columnheader", { name: "Sort by player name" })).toHaveAttribute(
      "aria-sort",
      "descending",
    );
    await expect(page).not.toHaveURL(/dir=/);
  });

  test("on a phone: cards with every figure, the order in a list, the filter, nothing sideways", async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(PHONE);
    await signIn(page, "vip_manager");
    await open(page, "/portfolio");
    const book = await apiGet<PortfolioData>(
      page.request,
      "/portfolio?manager=Sarah%20Mitchell",
      WIRE_DECIMALS.portfolio,
    );
    await expect(cards(page)).toHaveCount(book.players.length);
    await expect(tableRows(page).first()).toBeHidden();
    await expectNoSidewaysScroll(page);
    expect(await seriousViolations(page)).toEqual([]);
    await capture(page, testInfo, "portfolio-390");
    await page.screenshot({
      path: path.join(testInfo.project.outputDir, "screenshots", "portfolio-390-top.png"),
    });

    await page.getByLabel("Sort by", { exact: true }).selectOption("deposits");
    await expect(page).toHaveURL(/sort=deposits/);
    expect(await ids(cards(page))).toEqual(sortPortfolio(book.players, "deposits", "desc").map((p) => p.id));
    await page.getByRole("button", { name: /Descending: switch to ascending/ }).click();
    await expect(page).toHaveURL(/dir=asc/);

    await page.getByTestId("flag-filter-deposit_spike").click();
    const spikes = book.players.filter((p) => p.flags.includes("deposit_spike"));
    await expect(cards(page)).toHaveCount(spikes.length);
    // The filter's choices say what each flag means, in words, on the phone too.
    await expect(page.getByTestId("flag-filter-deposit_spike")).toContainText("usual week");
    await expectNoSidewaysScroll(page);
    await capture(page, testInfo, "portfolio-390-filtered");

    // Widened (a turned tablet, a resized window): the table, which the phone never hydrated, now shows the
    // current rows in the current order, and its headings sort.
    await page.setViewportSize(DESKTOP);
    await expect(tableRows(page)).toHaveCount(spikes.length);
    await expect(tableRows(page).first()).toBeVisible();
    expect(await ids(tableRows(page))).toEqual(sortPortfolio(spikes, "deposits", "asc").map((p) => p.id));
    await page.getByRole("button", { name: "Sort by balance" }).click();
    await expect(page).toHaveURL(/sort=balance/);
  });

  test("an admin picks any manager's book; an empty book and a failed read say so", async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(DESKTOP);
    await signIn(page, "admin");
    await open(page, "/");
    await page.getByRole("banner").getByRole("link", { name: "Portfolios" }).click();
    await expect(page.getByTestId("portfolio-choose")).toBeVisible();
    await page.getByLabel("Manager").selectOption("David Chen");
    await expect(page).toHaveURL(/manager=David\+Chen|manager=David%20Chen/);
    await expect(page.getByRole("heading", { name: "Players of David Chen" })).toBeVisible();
    await expect(tableRows(page).first()).toBeVisible();
    expect(await seriousViolations(page)).toEqual([]);
    await capture(page, testInfo, "portfolio-admin-1440");

    await open(page, "/portfolio?manager=Nobody%20Here");
    await expect(page.getByTestId("portfolio-empty")).toContainText("No player names Nobody Here");
    expect(await seriousViolations(page)).toEqual([]);

    await open(page, `/portfolio?manager=${"x".repeat(201)}`);
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the players" });
    await expect(alert).toBeVisible();
    await expect(alert).toContainText("manager");
    expect(await seriousViolations(page)).toEqual([]);
    // The over-long name from the URL wraps: the page never scrolls sideways.
    await expectNoSidewaysScroll(page);
    await capture(page, testInfo, "portfolio-error-1440");
  });

  test("a support agent has no portfolio: no link, and the page says why", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, "/");
    await expect(page.getByRole("banner").getByRole("link", { name: /My players|Portfolios/ })).toHaveCount(
      0,
    );
    await open(page, "/portfolio");
    await expect(page.getByTestId("forbidden")).toContainText("Portfolios are for VIP managers and admins");
  });
});
