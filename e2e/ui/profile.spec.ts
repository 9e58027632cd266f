import { expect, test } from "@playwright/test";
import type { MonthlyActivityData, PlayerProfileData } from "../../features/players/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { humanize, KYC_LABELS, withdrawalStatusLabel } from "../../platform/format/labels.ts";
import {
  apiGet,
  formatDateTimeInPage,
  formatMoneyInPage,
  open,
  problemResponse,
  ready,
  signIn,
  WHALE,
} from "./helpers.ts";

test.describe("player profile", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "vip_manager");
  });

  test("the card shows exactly what the API serves", async ({ page }) => {
    const p = await apiGet<PlayerProfileData>(page.request, `/players/${WHALE}`, WIRE_DECIMALS.playerProfile);
    await open(page, `/players/${WHALE}`);

    await expect(page.getByTestId("player-name")).toHaveText(p.name);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(p.name);
    await expect(page.getByTestId("player-id")).toHaveText(p.id);
    const badges = page.getByTestId("status-badges");
    await expect(badges).toContainText(`KYC ${KYC_LABELS[p.kyc_status].label}`);
    await expect(badges).toContainText(p.blocked ? "Blocked" : "Not blocked");
    await expect(badges).toContainText(
      `Withdrawals ${withdrawalStatusLabel(p.withdrawal_status).label.toLowerCase()}`,
    );

    await expect(page.getByTestId("field-email")).toHaveText(p.email ?? "Not set");
    await expect(page.getByTestId("field-phone")).toHaveText(p.phone ?? "Not set");
    await expect(page.getByTestId("field-language")).toHaveText(p.language ?? "Not set");
    await expect(page.getByTestId("field-currency")).toHaveText(p.currency);
    await expect(page.getByTestId("field-vip-manager")).toHaveText(p.vip_manager ?? "None assigned");
    if (p.affiliate_name) {
      await expect(page.getByTestId("field-affiliate")).toContainText(p.affiliate_name);
      await expect(page.getByTestId("field-affiliate")).toContainText(`Source: ${p.affiliate_source}`);
    }
    await expect(page.getByTestId("field-registered").locator("time")).toHaveAttribute(
      "datetime",
      p.registration_date,
    );
    await expect(page.getByTestId("field-registered").locator("time")).toHaveText(
      await formatDateTimeInPage(page, p.registration_date, "UTC"),
    );
    await expect(page.getByTestId("field-registered")).toContainText(/ago|in /);
    for (const segment of p.segments) {
      await expect(page.getByTestId("segments")).toContainText(humanize(segment));
    }

    const money = (amount: string) => formatMoneyInPage(page, amount, p.currency);
    const b = p.balances;
    await expect(page.getByTestId("balance-total")).toHaveText(await money(b.total_balance));
    await expect(page.getByTestId("balance-cash")).toHaveText(await money(b.cash_balance));
    await expect(page.getByTestId("balance-bonus")).toHaveText(await money(b.bonus_balance));
    await expect(page.getByTestId("balance-withdrawable")).toHaveText(await money(b.withdrawable_balance));
    await expect(page.getByTestId("balance-pending")).toHaveText(await money(b.pending_withdrawal));

    const k = p.kpi;
    await expect(page.getByTestId("kpi-ltd")).toHaveText(await money(k.ltd));
    await expect(page.getByTestId("kpi-ltw")).toHaveText(await money(k.ltw));
    await expect(page.getByTestId("kpi-ltnc")).toHaveText(await money(k.ltnc));
    await expect(page.getByTestId("kpi-wr")).toHaveText(await money(k.wr));
    await expect(page.getByTestId("kpi-active-bonus")).toHaveText(k.active_bonus ? "Yes" : "No");
    await expect(page.getByTestId("kpi-last-deposit")).toHaveText(
      k.last_deposit ? await money(k.last_deposit.amount) : "None",
    );
    await expect(page.getByTestId("kpi-last-withdrawal")).toHaveText(
      k.last_withdrawal ? await money(k.last_withdrawal.amount) : "None",
    );
    // The header keeps the key balances in view, in the same format.
    await expect(page.getByTestId("header-withdrawable")).toHaveText(await money(b.withdrawable_balance));
    await expect(page.getByTestId("header-pending")).toHaveText(await money(b.pending_withdrawal));
    await expect(page.getByTestId("header-total")).toHaveText(await money(b.total_balance));
  });

  test("missing data reads as such, and a player without transactions has an empty history", async ({
    page,
  }) => {
    // P000023: every 23rd demo player never played; P000041 has no email, P000013 no phone.
    await open(page, "/players/P000023");
    await expect(page.getByTestId("field-first-deposit")).toHaveText("No deposit yet");
    await expect(page.getByTestId("kpi-last-deposit")).toHaveText("None");
    await page.getByRole("tab", { name: "Transactions" }).click();
    await expect(page.getByText("No transactions yet")).toBeVisible();
    await page.getByRole("tab", { name: "Activity" }).click();
    await expect(
      page.getByText("No completed deposits, withdrawals, bets or wins in these 12 months."),
    ).toBeVisible();
    await open(page, "/players/P000041");
    await expect(page.getByTestId("field-email")).toHaveText("Not set");
    await open(page, "/players/P000013");
    await expect(page.getByTestId("field-phone")).toHaveText("Not set");
  });

  test("an unknown player gets a not-found page", async ({ page }) => {
    await open(page, "/players/NO-SUCH-PLAYER");
    await expect(page.getByRole("heading", { name: "Player not found" })).toBeVisible();
    await expect(page.getByText("NO-SUCH-PLAYER")).toBeVisible();
    // An id with a percent sign reaches the API exactly once encoded.
    await open(page, "/players/A%2541");
    await expect(page.getByRole("heading", { name: "Player not found" })).toBeVisible();
    await expect(page.locator("code", { hasText: "A%41" })).toHaveText("A%41");
    await expect(page).toHaveTitle("Player A%41 · Player Accounts");
  });

  test("an API failure shows the request id and a retry that recovers", async ({ page }) => {
    let failing = true;
    await page.route(`**/api/v1/players/${WHALE}`, async (route) => {
      if (!failing) return route.continue();
      await route.fulfill(
        problemResponse(
          {
            type: "/problems/service-unavailable",
            title: "Service unavailable",
            status: 503,
            detail: "The database is unreachable; try again shortly.",
            request_id: "e2e-outage-1",
          },
          { "Retry-After": "5" },
        ),
      );
    });
    // The server renders the first view; the browser reads the profile itself only where the server
    // cannot (tz=local) or failed, which is where this error shows.
    await open(page, `/players/${WHALE}?tz=local`);
    const alert = page.getByRole("alert").filter({ hasText: "Could not load this player" });
    await expect(alert).toContainText("The database is unreachable; try again shortly. (HTTP 503)", {
      timeout: 15_000,
    });
    await expect(alert).toContainText("Request id: e2e-outage-1");

    failing = false;
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("player-name")).toBeVisible();
  });

  test("the activity chart shows the API's monthly figures", async ({ page }) => {
    const activity = await apiGet<MonthlyActivityData>(
      page.request,
      `/players/${WHALE}/monthly-activity?months=12`,
      WIRE_DECIMALS.monthlyActivity,
    );
    await open(page, `/players/${WHALE}?section=activity`);
    const chart = page.getByTestId("activity-chart");
    await expect(chart.locator(".recharts-bar-rectangle").first()).toBeVisible();
    for (const label of ["Deposits", "Withdrawals", "Bets", "Wins"]) {
      await expect(chart.locator(".recharts-legend-item-text", { hasText: label })).toBeVisible();
    }
    await page.getByText("Show the numbers as a table").click();
    const rows = page.getByRole("region", { name: /Monthly activity in/ }).locator("tbody tr");
    await expect(rows).toHaveCount(12);
    for (const [i, month] of activity.months.entries()) {
      const cells = rows.nth(i).locator("td");
      await expect(cells.nth(0)).toContainText(
        await formatMoneyInPage(page, month.deposits.amount, activity.currency),
      );
      await expect(cells.nth(2)).toContainText(
        await formatMoneyInPage(page, month.bets.amount, activity.currency),
      );
    }
  });

  test.describe("in another time zone", () => {
    test.use({ timezoneId: "Asia/Tokyo" });

    test("the switch shows every date in local time, and the URL keeps the choice", async ({ page }) => {
      const p = await apiGet<PlayerProfileData>(
        page.request,
        `/players/${WHALE}`,
        WIRE_DECIMALS.playerProfile,
      );
      await open(page, `/players/${WHALE}`);
      const registered = page.getByTestId("field-registered").locator("time");
      await expect(registered).toHaveText(await formatDateTimeInPage(page, p.registration_date, "UTC"));

      await page.getByRole("radio", { name: "Local (Asia/Tokyo)" }).check();
      await expect(page).toHaveURL(/[?&]tz=local/);
      await expect(registered).toHaveText(
        await formatDateTimeInPage(page, p.registration_date, "Asia/Tokyo"),
      );
      // The choice holds in every section.
      await page.getByRole("tab", { name: "Transactions" }).click();
      await expect(page.getByRole("columnheader", { name: "Date (Asia/Tokyo)" })).toBeVisible();
      await page.goBack();
      await expect(registered).toHaveText(
        await formatDateTimeInPage(page, p.registration_date, "Asia/Tokyo"),
      );

      await page.reload();
      await ready(page);
      await expect(page.getByRole("radio", { name: "Local (Asia/Tokyo)" })).toBeChecked();
      await page.goBack();
      await expect(page.getByRole("radio", { name: "UTC" })).toBeChecked();
    });
  });

  test("nothing moves when the data arrives", async ({ page }) => {
    await page.addInitScript(() => {
      const w = window as unknown as { __shift: number };
      w.__shift = 0;
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number;
          hadRecentInput: boolean;
        })[]) {
          if (!entry.hadRecentInput) w.__shift += entry.value;
        }
      }).observe({ type: "layout-shift", buffered: true });
    });
    const shift = () => page.evaluate(() => (window as unknown as { __shift: number }).__shift);
    // Cumulative layout shift: below 0.1 counts as "good" in Web Vitals. Each section, as first opened.
    await open(page, `/players/${WHALE}`);
    await expect(page.getByTestId("kpi-ltd")).toBeVisible();
    expect(await shift()).toBeLessThan(0.1);
    await open(page, `/players/${WHALE}?section=transactions`);
    await expect(page.getByTestId("transaction-row").first()).toBeVisible();
    expect(await shift()).toBeLessThan(0.1);
    await open(page, `/players/${WHALE}?section=activity`);
    await expect(page.getByTestId("activity-chart").locator(".recharts-bar-rectangle").first()).toBeVisible();
    expect(await shift()).toBeLessThan(0.1);
  });
});
