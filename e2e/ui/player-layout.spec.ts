import { expect, type Page, test } from "@playwright/test";
import type { PlayerPeriodSummaryData, PlayerProfileData } from "../../features/players/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import {
  apiGet,
  formatCountInPage,
  formatMoneyInPage,
  open,
  signIn,
  visibleTransactions,
  WHALE,
} from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * The profile page's layout: a sticky header over one section at a time (?section=), the Activity chart
 * and the admin audit trail loaded on demand, key figures in words, masked contact data as plain text.
 */

const header = (page: Page) => page.getByTestId("player-header");
const tab = (page: Page, name: string) =>
  page.getByRole("tablist", { name: "Player sections" }).getByRole("tab", { name, exact: true });

/** Script URLs the page requests from now on. */
function recordScripts(page: Page): string[] {
  const urls: string[] = [];
  page.on("request", (request) => {
    if (request.resourceType() === "script") urls.push(new URL(request.url()).pathname);
  });
  return urls;
}

for (const viewport of SIZES) {
  test.describe(`at ${viewport.name} size`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });

    test("the header stays in view while the page scrolls, and leaves the phone most of its screen", async ({
      page,
    }) => {
      await signIn(page, "vip_manager");
      const p = await apiGet<PlayerProfileData>(
        page.request,
        `/players/${WHALE}`,
        WIRE_DECIMALS.playerProfile,
      );
      await open(page, `/players/${WHALE}?section=transactions`);
      await expect(visibleTransactions(page).first()).toBeVisible();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(200);
      await expect(page.getByTestId("player-name")).toHaveText(p.name);
      await expect(page.getByTestId("player-name")).toBeInViewport();
      await expect(header(page).getByTestId("status-badges")).toBeInViewport();
      await expect(tab(page, "Overview")).toBeInViewport();
      const box = await header(page).boundingBox();
      expect(box?.y).toBe(0);
      expect(box?.height ?? Number.POSITIVE_INFINITY).toBeLessThanOrEqual(viewport.height * 0.25);
    });

    test("sections switch by click and by keyboard, and the URL opens the same section", async ({ page }) => {
      await signIn(page, "vip_manager");
      await open(page, `/players/${WHALE}`);
      await expect(tab(page, "Overview")).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel", { name: "Overview" })).toContainText("Key figures");

      await tab(page, "Transactions").click();
      await expect(page).toHaveURL(/[?&]section=transactions/);
      await expect(tab(page, "Transactions")).toHaveAttribute("aria-selected", "true");
      await expect(page.getByRole("tabpanel", { name: "Transactions" })).toBeVisible();
      await expect(visibleTransactions(page).first()).toBeVisible();

      // One tab stop; arrows, Home and End move the selection (WAI-ARIA tabs, automatic activation).
      await expect(tab(page, "Overview")).toHaveAttribute("tabindex", "-1");
      await tab(page, "Transactions").focus();
      await page.keyboard.press("ArrowRight");
      await expect(tab(page, "Activity")).toBeFocused();
      await expect(tab(page, "Activity")).toHaveAttribute("aria-selected", "true");
      await expect(page).toHaveURL(/[?&]section=activity/);
      await expect(page.getByTestId("activity-chart")).toBeVisible();
      await page.keyboard.press("ArrowRight");
      await expect(tab(page, "Overview")).toBeFocused();
      await page.keyboard.press("End");
      await expect(tab(page, "Activity")).toBeFocused();
      await page.keyboard.press("Home");
      await expect(tab(page, "Overview")).toHaveAttribute("aria-selected", "true");
      await expect(page).toHaveURL(/[?&]section=overview/);
      await page.keyboard.press("ArrowLeft");
      await expect(tab(page, "Activity")).toBeFocused();
      // The selection reaches the URL (a history entry) before Back: Back must step from it, not race it.
      await expect(page).toHaveURL(/[?&]section=activity/);

      // Back steps through the sections; a shared link opens the section it names.
      await page.goBack();
      await expect(tab(page, "Overview")).toHaveAttribute("aria-selected", "true");
      const shared = await page.context().newPage();
      await open(shared, `/players/${WHALE}?section=activity&tz=local`);
      await expect(tab(shared, "Activity")).toHaveAttribute("aria-selected", "true");
      await expect(shared.getByTestId("activity-chart")).toBeVisible();
      await shared.close();
    });
  });
}

test.describe("at 1440 × 900", () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test("the Transactions section shows the table's first rows without scrolling", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, `/players/${WHALE}?section=transactions`);
    const rows = page.getByTestId("transaction-row");
    await expect(rows.nth(2)).toBeVisible();
    expect(await page.evaluate(() => window.scrollY)).toBe(0);
    for (const i of [0, 1, 2]) await expect(rows.nth(i)).toBeInViewport({ ratio: 1 });
  });

  test("a link with transaction filters and no section opens the Transactions section", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, `/players/${WHALE}?event_type=deposit&per_page=10`);
    await expect(tab(page, "Transactions")).toHaveAttribute("aria-selected", "true");
    await expect(page.getByTestId("transaction-row")).toHaveCount(10);
  });
});

test.describe("code loaded on demand", () => {
  test("the chart and the audit trail load when their section opens; a support agent never loads audit code", async ({
    browser,
  }) => {
    // An admin: the chunks requested when Audit first opens (after every other section) hold the trail.
    const admin = await browser.newPage();
    await signIn(admin, "admin");
    const adminScripts = recordScripts(admin);
    await open(admin, `/players/${WHALE}`);
    await expect(admin.getByTestId("player-name")).toBeVisible();
    await tab(admin, "Transactions").click();
    await expect(visibleTransactions(admin).first()).toBeVisible();
    const beforeChart = adminScripts.length;
    await tab(admin, "Activity").click();
    await expect(
      admin.getByTestId("activity-chart").locator(".recharts-bar-rectangle").first(),
    ).toBeVisible();
    expect(adminScripts.length, "the chart's code loads when Activity opens").toBeGreaterThan(beforeChart);
    const beforeAudit = adminScripts.length;
    await tab(admin, "Audit").click();
    await expect(admin.getByRole("heading", { name: "Audit trail" })).toBeVisible();
    const auditChunks = adminScripts.slice(beforeAudit);
    expect(auditChunks.length, "the trail's code loads when Audit opens").toBeGreaterThan(0);
    await admin.close();

    // A support agent: no Audit tab, an Audit link shows the Overview, and no audit chunk is requested.
    const agent = await browser.newPage();
    await signIn(agent, "support_agent");
    const agentScripts = recordScripts(agent);
    await open(agent, `/players/${WHALE}?section=audit`);
    await expect(tab(agent, "Overview")).toHaveAttribute("aria-selected", "true");
    await expect(tab(agent, "Audit")).toHaveCount(0);
    for (const name of ["Transactions", "Activity", "Overview"]) {
      await tab(agent, name).click();
      await expect(tab(agent, name)).toHaveAttribute("aria-selected", "true");
    }
    await expect(agent.getByTestId("activity-chart")).toHaveCount(0);
    await expect(agent.getByRole("heading", { name: "Audit trail" })).toHaveCount(0);
    expect(agentScripts.length).toBeGreaterThan(0);
    expect(agentScripts.filter((url) => auditChunks.includes(url))).toEqual([]);
    await agent.close();
  });
});

test.describe("the table's code", () => {
  test("an Overview loads it only when Transactions is chosen; filters then keep the focus", async ({
    page,
  }) => {
    await signIn(page, "support_agent");
    const scripts = recordScripts(page);
    await open(page, `/players/${WHALE}`);
    await expect(page.getByTestId("player-name")).toBeVisible();
    const overviewScripts = scripts.length;
    await tab(page, "Transactions").click();
    await expect(visibleTransactions(page).first()).toBeVisible();
    expect(scripts.length, "the table's code loads when Transactions opens").toBeGreaterThan(overviewScripts);
    // The page is rendered again on the server for each filter change: the field being typed in stays.
    const status = page.getByLabel("Status");
    await status.focus();
    await status.selectOption("pending");
    await expect(page).toHaveURL(/status=pending/);
    await expect(status).toBeFocused();
    await expect(status).toHaveValue("pending");
  });

  test("a page opened on Transactions has the table in its first load", async ({ page }) => {
    await signIn(page, "support_agent");
    const scripts = recordScripts(page);
    await open(page, `/players/${WHALE}?section=transactions`);
    await expect(visibleTransactions(page).first()).toBeVisible();
    const loaded = scripts.length;
    await tab(page, "Overview").click();
    await expect(page.getByTestId("section-panel-overview")).toBeVisible();
    await tab(page, "Transactions").click();
    await expect(visibleTransactions(page).first()).toBeVisible();
    expect(scripts.length, "no more code for the table").toBe(loaded);
  });
});

test.describe("overview", () => {
  test("key figures are named in words with an explanation, not by their API codes", async ({ page }) => {
    await signIn(page, "vip_manager");
    await open(page, `/players/${WHALE}`);
    const figures = page.getByRole("region", { name: "Key figures" });
    for (const [label, note] of [
      ["Lifetime deposits", "Every completed deposit"],
      ["Lifetime withdrawals", "Every completed withdrawal"],
      ["Net cash", "Deposits minus withdrawals"],
      ["Wagering left", "Still to bet before the active bonus turns into cash"],
      ["Active bonus", "Whether a bonus balance is open"],
      ["Last deposit", ""],
      ["Last withdrawal", ""],
    ] as const) {
      const term = figures.locator("dt", { hasText: label });
      await expect(term).toBeVisible();
      if (note) await expect(term.locator("xpath=..")).toContainText(note);
    }
    for (const code of ["ltd", "ltw", "ltnc", "wr", "active_bonus", "last_deposit", "last_withdrawal"]) {
      await expect(page.getByText(code, { exact: true })).toHaveCount(0);
    }
  });

  test("a support agent gets masked contact data as plain text, with a note saying so", async ({ page }) => {
    await signIn(page, "support_agent");
    const p = await apiGet<PlayerProfileData>(page.request, `/players/${WHALE}`, WIRE_DECIMALS.playerProfile);
    expect(p.email).toContain("***");
    await open(page, `/players/${WHALE}`);
    await expect(page.getByTestId("field-email")).toHaveText(p.email ?? "");
    await expect(page.getByTestId("field-phone")).toHaveText(p.phone ?? "");
    await expect(page.getByTestId("field-email").locator("a")).toHaveCount(0);
    await expect(page.getByTestId("field-phone").locator("a")).toHaveCount(0);
    await expect(page.locator('a[href^="mailto:"], a[href^="tel:"]')).toHaveCount(0);
    await expect(page.getByTestId("contact-masked-note")).toHaveText(/Contact data is masked for your role/);
  });

  test("a VIP manager gets working contact links and no masking note", async ({ page }) => {
    await signIn(page, "vip_manager");
    const p = await apiGet<PlayerProfileData>(page.request, `/players/${WHALE}`, WIRE_DECIMALS.playerProfile);
    await open(page, `/players/${WHALE}`);
    await expect(page.getByTestId("field-email").locator("a")).toHaveAttribute("href", `mailto:${p.email}`);
    await expect(page.getByTestId("field-phone").locator("a")).toHaveAttribute(
      "href",
      `tel:${(p.phone ?? "").replace(/[^\d+]/g, "")}`,
    );
    await expect(page.getByTestId("contact-masked-note")).toHaveCount(0);
  });

  test("a blocked player's header says so in words, with an icon, in the solid alarm style", async ({
    page,
  }) => {
    // Every 17th demo player is blocked, withdrawals included.
    await signIn(page, "support_agent");
    await open(page, "/players/P000017");
    const badges = header(page).getByTestId("status-badges");
    const blocked = badges.getByText("Blocked", { exact: true });
    await expect(blocked).toBeVisible();
    await expect(badges.getByText("Withdrawals blocked")).toBeVisible();
    await expect(blocked.locator("svg")).toHaveCount(1);
    const colours = await blocked.evaluate((el) => {
      const s = getComputedStyle(el);
      return { background: s.backgroundColor, colour: s.color };
    });
    // Solid red with white text, unlike the pale badges of ordinary states.
    expect(colours.colour).toBe("rgb(255, 255, 255)");
    expect(colours.background).not.toBe("rgba(0, 0, 0, 0)");
  });
});

test.describe("period summary", () => {
  test("each period's figures are the API's, and the URL keeps the period", async ({ page }) => {
    await signIn(page, "vip_manager");
    await open(page, `/players/${WHALE}`);
    const panel = page.getByRole("region", { name: "Summary" });
    await expect(panel.getByRole("radio", { name: "30 days" })).toBeChecked();
    const periods = [
      ["90 days", "90d"],
      ["365 days", "365d"],
      ["All time", "all"],
      ["30 days", "30d"],
    ] as const;
    for (const [label, period] of periods) {
      const s = await apiGet<PlayerPeriodSummaryData>(
        page.request,
        `/players/${WHALE}/summary?period=${period}`,
        WIRE_DECIMALS.playerSummary,
      );
      await panel.getByRole("radio", { name: label }).check();
      // 30 days is the default, which the URL leaves out.
      await expect
        .poll(() => new URL(page.url()).searchParams.get("period"))
        .toBe(period === "30d" ? null : period);
      const figures = page.getByTestId("period-summary");
      await expect(figures).toHaveAttribute("data-period", period);
      await expect(figures).toHaveAttribute("aria-busy", "false");
      // A figure is a link to its transactions: its text is the amount, then the link's screen-reader words.
      const money = async (v: string) =>
        new RegExp(
          `^${(await formatMoneyInPage(page, v, s.currency)).replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(:|$)`,
        );
      const rounded = (v: string) => formatMoneyInPage(page, v, s.currency, false, true);
      const count = (n: number) => formatCountInPage(page, n);
      await expect(page.getByTestId("summary-deposits")).toHaveText(await money(s.deposits.sum));
      await expect(page.getByTestId("summary-withdrawals")).toHaveText(await money(s.withdrawals.sum));
      await expect(page.getByTestId("summary-net-deposits")).toHaveText(await money(s.net_deposits));
      await expect(page.getByTestId("summary-bets")).toHaveText(await money(s.bets.sum));
      await expect(page.getByTestId("summary-wins")).toHaveText(await money(s.wins.sum));
      await expect(page.getByTestId("summary-ggr")).toHaveText(await money(s.gross_gaming_revenue));
      await expect(page.getByTestId("summary-bonus")).toHaveText(await money(s.bonus_granted.sum));
      // Count and average under each sum; the average in the currency's minor unit, like the other amounts.
      for (const [testId, flow, one] of [
        ["summary-deposits", s.deposits, "deposit"],
        ["summary-withdrawals", s.withdrawals, "withdrawal"],
      ] as const) {
        // The tile's terms: the sum, this note, then the change against the previous period.
        const note = figures
          .locator("div", { has: page.getByTestId(testId) })
          .locator("dd")
          .nth(1);
        const counted = `${await count(flow.count)} ${flow.count === 1 ? one : `${one}s`}`;
        const average = flow.average === null ? "no average" : `average ${await rounded(flow.average)}`;
        await expect(note).toHaveText(`${counted}, ${average}`);
      }
      for (const [testId, iso] of [
        ["summary-first-activity", s.first_activity],
        ["summary-last-activity", s.last_activity],
      ] as const) {
        const cell = page.getByTestId(testId);
        if (iso) await expect(cell.locator("time")).toHaveAttribute("datetime", iso);
        else await expect(cell).toHaveText("None in this period");
      }
    }
    // The all-time figures are not empty for the whale: the comparison above compared real numbers.
    const all = await apiGet<PlayerPeriodSummaryData>(
      page.request,
      `/players/${WHALE}/summary?period=all`,
      WIRE_DECIMALS.playerSummary,
    );
    expect(all.deposits.count).toBeGreaterThan(0);

    await open(page, `/players/${WHALE}?period=365d`);
    await expect(
      page.getByRole("region", { name: "Summary" }).getByRole("radio", { name: "365 days" }),
    ).toBeChecked();
  });
});
