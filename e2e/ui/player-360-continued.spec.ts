import { expect, type Page, test } from "@playwright/test";
import type {
  MonthlyActivityData,
  PlayerPeriodSummaryData,
  PlayerProfileData,
} from "../../features/players/client/queries.ts";
import type {
  TransactionListData,
  TransactionTotalsData,
} from "../../features/transactions/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import {
  apiGet,
  capture,
  expectNoSidewaysScroll,
  formatCountInPage,
  formatMoneyInPage,
  open,
  seriousViolations,
  signIn,
  signInWithForm,
  visibleTransactions,
  WHALE,
} from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * Player 360, continued (issue 23): changes against the previous period, drill-down from the summary and the
 * chart to the transactions with a totals row, the amount order by size, dates typed into a filter, the last
 * withdrawal's date, the CSV's status column and file name, and sign-in after a session expired. Each at a
 * desktop and a phone size, axe-checked, with screenshots in test-results/…/screenshots/.
 */
const search = (page: Page) => new URL(page.url()).searchParams;

// Several pages, downloads and sign-ins per test, on a shared two-core machine: more than the project's 90 s.
test.describe.configure({ timeout: 300_000 });
/** The first wait on a freshly opened section (its code and data load on demand). */
const LOADED = { timeout: 120_000 };

for (const size of SIZES) {
  test.describe(`player 360 at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    test("summary figures show their change, and drill down to their transactions with exact totals", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      const summary = await apiGet<PlayerPeriodSummaryData>(
        page.request,
        `/players/${WHALE}/summary?period=365d`,
        WIRE_DECIMALS.playerSummary,
      );
      expect(summary.previous).not.toBeNull();
      await open(page, `/players/${WHALE}?period=365d`);
      const deposits = page.getByTestId("summary-deposits-change");
      await expect(deposits).toContainText("vs previous 365 days", LOADED);
      // The direction is in words and signs, not colour alone: it follows the exact difference.
      const before = Number(summary.previous?.deposits.sum);
      const now = Number(summary.deposits.sum);
      const direction = now > before ? "up" : now < before ? "down" : "same";
      await expect(deposits.locator("[data-direction]")).toHaveAttribute("data-direction", direction);
      await expect(page.getByTestId("summary-ggr-change")).toContainText("vs previous 365 days");
      expect(await seriousViolations(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `p360-summary-${size.name}`);

      // A click on the deposits figure opens the period's completed deposits, in UTC days.
      await page.getByTestId("summary-deposits-link").click();
      await expect.poll(() => search(page).get("section")).toBe("transactions");
      expect(search(page).getAll("event_type")).toEqual(["deposit"]);
      expect(search(page).get("status")).toBe("completed");
      expect(search(page).get("from")).toBe(summary.from?.slice(0, 10));
      expect(search(page).get("tz")).toBe("utc");
      const totals = page.getByTestId("transaction-totals");
      await expect(totals.getByTestId("transaction-totals-count")).toHaveText(
        `${await formatCountInPage(page, summary.deposits.count)} transactions`,
      );
      await expect(totals.getByTestId("transaction-totals-sum")).toHaveText(
        `sum ${await formatMoneyInPage(page, summary.deposits.sum, summary.currency, true)}`,
      );
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `p360-drilldown-deposits-${size.name}`);

      // Keyboard: Enter on the withdrawals figure. Withdrawals are money out: the sum is negative.
      await page.goBack();
      await page.getByTestId("summary-withdrawals-link").focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => search(page).getAll("event_type")).toEqual(["withdrawal"]);
      await expect(totals.getByTestId("transaction-totals-count")).toHaveText(
        `${await formatCountInPage(page, summary.withdrawals.count)} transactions`,
      );
      await expect(totals.getByTestId("transaction-totals-sum")).toHaveText(
        `sum ${await formatMoneyInPage(page, `-${summary.withdrawals.sum}`, summary.currency, true)}`,
      );
    });

    test("the monthly chart marks the current month as partial, shows net deposits and GGR, and drills down", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      const activity = await apiGet<MonthlyActivityData>(
        page.request,
        `/players/${WHALE}/monthly-activity?months=12`,
        WIRE_DECIMALS.monthlyActivity,
      );
      const current = activity.months.at(-1);
      expect(current?.partial).toBe(true);
      await open(page, `/players/${WHALE}?section=activity`);
      await expect(page.getByTestId("activity-partial-note")).toContainText("is not over", LOADED);
      await expect(page.getByTestId("activity-partial-note")).toContainText("partial month");
      await page.getByText("Show the numbers as a table").click();
      const table = page.getByRole("table", { name: /Monthly activity/ });
      await expect(table.getByRole("columnheader", { name: "Net deposits" })).toBeVisible();
      await expect(table.getByRole("columnheader", { name: "GGR" })).toBeVisible();
      await expect(table.getByText("partial, to date")).toHaveCount(1);
      expect(await seriousViolations(page)).toEqual([]);
      await expectNoSidewaysScroll(page);
      await capture(page, testInfo, `p360-activity-${size.name}`);

      // Enter on the current month's net deposits: its deposits and withdrawals, the whole month in UTC.
      const month = current?.month ?? "";
      await table
        .getByRole("link", { name: /show the transactions behind it/ })
        .nth(-2)
        .focus();
      await page.keyboard.press("Enter");
      await expect.poll(() => search(page).getAll("event_type")).toEqual(["deposit", "withdrawal"]);
      expect(search(page).get("from")).toBe(`${month}-01`);
      const totals = await apiGet<TransactionTotalsData>(
        page.request,
        `/players/${WHALE}/transaction-totals?event_type=deposit,withdrawal&status=completed&from_date=${month}-01&to_date=${search(page).get("to")}`,
        WIRE_DECIMALS.transactionTotals,
      );
      // The signed sum of deposits and withdrawals is the month's net deposits, exactly.
      expect(totals.by_currency[0]?.sum ?? "0").toBe(current?.net_deposits);

      // A click on a bar opens that month's transactions of its type.
      await page.goBack();
      await page.locator(".recharts-bar-rectangle").first().click();
      await expect.poll(() => search(page).get("section")).toBe("transactions");
      expect(search(page).get("status")).toBe("completed");
    });

    test("largest amount first lists withdrawals by size, and says so", async ({ page }, testInfo) => {
      await signIn(page);
      const list = await apiGet<TransactionListData>(
        page.request,
        `/players/${WHALE}/transactions?event_type=withdrawal&sort=amount_desc&limit=20`,
        WIRE_DECIMALS.transactionList,
      );
      const sizes = list.transactions.map((t) => Math.abs(Number(t.amount)));
      expect(sizes.length).toBeGreaterThan(5);
      expect(sizes).toEqual([...sizes].sort((a, b) => b - a));
      await open(page, `/players/${WHALE}?section=transactions&event_type=withdrawal&sort=amount_desc`);
      await expect(page.getByText("Largest amount first (by size). Dates")).toBeVisible();
      if (size.name === "mobile") {
        await expect(page.getByLabel("Sort", { exact: true })).toContainText(
          "Largest amount first (by size)",
        );
      } else {
        await expect(page.getByRole("columnheader", { name: /Amount/ })).toContainText("(by size)");
      }
      const first = list.transactions[0];
      if (!first) throw new Error("no withdrawal");
      await expect(visibleTransactions(page).first()).toContainText(
        await formatMoneyInPage(page, first.amount, first.currency),
        LOADED,
      );
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `p360-amount-sort-${size.name}`, false);
    });

    test("typing a date adds one history entry, and Back leaves no half-typed year", async ({ page }) => {
      await signIn(page);
      await open(page, `/players/${WHALE}?section=transactions`);
      const before = await page.evaluate(() => history.length);
      const from = page.getByLabel("From", { exact: true });
      await expect(from).toBeVisible(LOADED);
      // Focus lands on the month part (a click could land on the day or the year).
      await from.focus();
      // mm/dd/yyyy in Chromium's en-US date input: the year arrives as 0002, 0020, 0202, 2026.
      await page.keyboard.type("11012026");
      await expect.poll(() => search(page).get("from")).toBe("2026-11-01");
      await from.blur();
      expect(await page.evaluate(() => history.length)).toBe(before + 1);
      await page.goBack();
      await expect.poll(() => search(page).get("from")).toBeNull();
      await expect(page.getByText(/ignored/i)).toHaveCount(0);
      await expect(from).toHaveValue("");
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("the last withdrawal shows its date; the CSV has a status column and a name stating the filters", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      const profile = await apiGet<PlayerProfileData>(
        page.request,
        `/players/${WHALE}`,
        WIRE_DECIMALS.playerProfile,
      );
      const last = profile.kpi.last_withdrawal;
      if (!last) throw new Error("the whale has withdrawals");
      await open(page, `/players/${WHALE}`);
      await expect(page.getByTestId("kpi-last-withdrawal-date")).toHaveAttribute("datetime", last.date);
      await capture(page, testInfo, `p360-kpi-${size.name}`, false);

      await open(
        page,
        `/players/${WHALE}?section=transactions&event_type=withdrawal&from=2025-01-01&to=2025-12-31&tz=utc`,
      );
      const download = page.waitForEvent("download");
      await page.getByRole("button", { name: /^Export CSV/ }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe("P000007_transactions_withdrawal_2025-01-01_2025-12-31.csv");
      const text = await (await file.createReadStream()).toArray();
      const lines = Buffer.concat(text).toString("utf8").trimEnd().split("\r\n");
      // The status column, then updated_at last (as on the list's rows).
      expect(lines[0]?.split(",").slice(-2)).toEqual(["status", "updated_at"]);
      for (const line of lines.slice(1, 50)) {
        expect(["pending", "completed"]).toContain(line.split(",").at(-2));
        expect(line.split(",").at(-1)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
      }
    });

    test("after the session expires, sign-in says so and returns to the same view", async ({
      page,
      context,
    }, testInfo) => {
      const view = `/players/${WHALE}?section=transactions&event_type=deposit&status=completed&sort=amount_desc`;
      // Page navigation: the session cookie no longer stands for a live session.
      await signIn(page);
      const cookies = await context.cookies();
      const session = cookies.find((c) => c.name.includes("session-token"));
      if (!session) throw new Error("no session cookie");
      await context.addCookies([{ ...session, value: "no-longer-a-session" }]);
      await page.goto(view);
      await expect(page.getByTestId("session-expired")).toHaveText(
        /Your session expired — sign in to continue/,
      );
      expect(new URL(page.url()).searchParams.get("callbackUrl")).toBe(view);
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `p360-session-expired-${size.name}`);
      await signInWithForm(page);
      await expect.poll(() => `${new URL(page.url()).pathname}${new URL(page.url()).search}`).toBe(view);

      // In the page: the session ends (signed out in another tab); the next API call lands on sign-in too.
      await open(page, view);
      await expect(page.getByTestId("transaction-totals-count")).toBeVisible();
      const other = await context.newPage();
      await open(other, "/");
      await other.getByRole("button", { name: "Sign out" }).click();
      await expect(other).toHaveURL(/\/sign-in$/);
      await other.close();
      await page.getByLabel("Status").first().selectOption("pending");
      await expect(page.getByTestId("session-expired")).toBeVisible();
      const callback = new URL(page.url()).searchParams.get("callbackUrl") ?? "";
      expect(callback.startsWith(`/players/${WHALE}?`)).toBe(true);
      await signInWithForm(page);
      await expect.poll(() => new URL(page.url()).pathname).toBe(`/players/${WHALE}`);
      expect(search(page).get("event_type")).toBe("deposit");
    });
  });
}
