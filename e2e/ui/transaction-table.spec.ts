import path from "node:path";
import { expect, type Page, type TestInfo, test } from "@playwright/test";
import type {
  TransactionFacetsData,
  TransactionListData,
} from "../../features/transactions/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import {
  apiGet,
  formatCountInPage,
  open,
  seriousViolations,
  signIn,
  visibleTransactions,
  WHALE,
} from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * The transactions table of issue 12: sort by date and amount, status filter, lookup by id, faceted counts,
 * the notice about URL values the page ignored, the date-range empty state's jump and the row details.
 */
const PROFILE = `/players/${WHALE}`;

const list = (page: Page, query: string) =>
  apiGet<TransactionListData>(
    page.request,
    `${PROFILE}/transactions?${query}`,
    WIRE_DECIMALS.transactionList,
  );
const facets = (page: Page, query = "") =>
  apiGet<TransactionFacetsData>(
    page.request,
    `${PROFILE}/transaction-facets?${query}`,
    WIRE_DECIMALS.transactionFacets,
  );
const search = (page: Page) => new URL(page.url()).searchParams;
const shownIds = (page: Page) =>
  visibleTransactions(page).evaluateAll((els) => els.map((e) => e.getAttribute("data-transaction-id")));

async function expectShown(page: Page, expected: TransactionListData) {
  await expect.poll(() => shownIds(page)).toEqual(expected.transactions.map((t) => t.id));
}

async function expectTotal(page: Page, total: number) {
  await expect(page.getByTestId("page-range")).toHaveText(
    new RegExp(` of ${await formatCountInPage(page, total)}$`),
  );
}

/** axe's rules, limited to the transactions card: serious and critical findings fail. */
async function expectTableAccessible(page: Page) {
  expect(await seriousViolations(page, '[aria-labelledby="transactions-title"]')).toEqual([]);
}

const heading = (page: Page, name: RegExp) => page.getByRole("columnheader", { name });

test.describe("transactions table at 1440 px", () => {
  test.use({ viewport: { width: 1440, height: 900 } });
  test.beforeEach(async ({ page }) => {
    await signIn(page, "support_agent");
  });

  test("sorting by amount both ways shows the API's order, from page 1, and the export follows", async ({
    page,
  }) => {
    await open(page, `${PROFILE}?page=3`);
    await expect(visibleTransactions(page).first()).toBeVisible();
    await expect(heading(page, /^Date/)).toHaveAttribute("aria-sort", "descending");
    await expect(heading(page, /^Amount/)).toHaveAttribute("aria-sort", "none");

    await heading(page, /^Amount/)
      .getByRole("button")
      .click();
    await expect.poll(() => search(page).get("sort")).toBe("amount_desc");
    expect(search(page).get("page")).toBeNull();
    await expect(heading(page, /^Amount/)).toHaveAttribute("aria-sort", "descending");
    await expect(heading(page, /^Date/)).toHaveAttribute("aria-sort", "none");
    await expectShown(page, await list(page, "sort=amount_desc&limit=20"));

    await heading(page, /^Amount/)
      .getByRole("button")
      .click();
    await expect.poll(() => search(page).get("sort")).toBe("amount_asc");
    await expect(heading(page, /^Amount/)).toHaveAttribute("aria-sort", "ascending");
    await expectShown(page, await list(page, "sort=amount_asc&limit=20"));
    await expectTableAccessible(page);

    const exported = page.waitForRequest((r) => r.url().includes("/transactions/export"));
    await page.getByRole("button", { name: /^Export/ }).click();
    const url = new URL((await exported).url());
    expect(url.searchParams.get("sort")).toBe("amount_asc");
  });

  test("filters by status; the event type counts follow it", async ({ page }) => {
    const [all, pending, pendingList] = await Promise.all([
      facets(page),
      facets(page, "status=pending"),
      list(page, "status=pending&limit=20"),
    ]);
    const bet = (f: TransactionFacetsData) => f.event_types.find((t) => t.value === "bet")?.count ?? -1;
    expect(bet(pending)).not.toBe(bet(all));

    await open(page, `${PROFILE}?section=transactions`);
    await page.getByRole("button", { name: /^Event type:/ }).click();
    const betOption = page.getByRole("checkbox", { name: /^Bet/ }).locator("xpath=ancestor::label[1]");
    await expect(betOption).toContainText(await formatCountInPage(page, bet(all)));
    await page.keyboard.press("Escape");

    await page.getByLabel("Status", { exact: true }).selectOption("pending");
    await expect.poll(() => search(page).get("status")).toBe("pending");
    await expectTotal(page, pendingList.total);
    await expectShown(page, pendingList);
    for (const cell of await page
      .locator('tr[data-testid="transaction-row"] td[data-column="status"]')
      .all()) {
      await expect(cell).toHaveText("Pending");
    }
    await page.getByRole("button", { name: /^Event type:/ }).click();
    await expect(betOption).toContainText(await formatCountInPage(page, bet(pending)));
    await expect(betOption).not.toContainText(await formatCountInPage(page, bet(all)));
  });

  test("looks a transaction up by id, and says so when this player has none with that id", async ({
    page,
  }) => {
    const target = (await list(page, "limit=5&offset=40")).transactions[2];
    if (!target) throw new Error("the whale has fewer than 43 transactions");
    await open(page, `${PROFILE}?section=transactions`);
    const box = page.getByRole("textbox", { name: "Transaction id" });
    await box.fill(target.id);
    await box.press("Enter");
    await expect.poll(() => search(page).get("transaction_id")).toBe(target.id);
    await expect.poll(() => shownIds(page)).toEqual([target.id]);
    await expectTotal(page, 1);

    await box.fill("NO-SUCH-TX");
    await box.press("Enter");
    await expect(
      page.getByRole("status").filter({ hasText: "No transaction with id “NO-SUCH-TX” for this player" }),
    ).toBeVisible();
    await expectTableAccessible(page);
    await page.getByRole("button", { name: "Clear the id" }).click();
    await expect.poll(() => search(page).get("transaction_id")).toBeNull();
    await expect(visibleTransactions(page)).toHaveCount(20);
  });

  test("a URL with values the page cannot use says which it ignored and applies the rest", async ({
    page,
  }) => {
    const bets = await list(page, "event_type=bet&limit=20");
    await open(page, `${PROFILE}?event_type=bogus&event_type=bet&per_page=7&sort=sideways&status=x`);
    const notice = page.getByTestId("ignored-params");
    await expect(notice).toContainText("event_type=bogus, status=x, sort=sideways, per_page=7");
    await expectTotal(page, bets.total);
    await expectShown(page, bets);
    await expectTableAccessible(page);
    await page.getByRole("button", { name: "Dismiss the notice about ignored values" }).click();
    await expect(notice).toHaveCount(0);

    await open(page, `${PROFILE}?event_type=bet`);
    await expect(visibleTransactions(page).first()).toBeVisible();
    await expect(notice).toHaveCount(0);
  });

  test("an empty date range names the last transaction's day and jumps to the 30 days up to it", async ({
    page,
  }) => {
    const { last_date } = await facets(page);
    if (!last_date) throw new Error("the whale has no transactions");
    const lastDay = last_date.slice(0, 10);
    const from = new Date(Date.parse(`${lastDay}T00:00:00Z`) - 29 * 86_400_000).toISOString().slice(0, 10);
    const inRange = await list(
      page,
      `from_date=${from}T00:00:00.000Z&to_date=${lastDay}T23:59:59.999Z&limit=20`,
    );

    await open(page, `${PROFILE}?from=2000-01-01&to=2000-12-31`);
    const jump = page.getByRole("button", { name: `Show the 30 days up to ${lastDay}` });
    await expect(jump).toBeVisible();
    await expect(page.getByRole("status").filter({ hasText: "last transaction was on" })).toBeVisible();
    await expectTableAccessible(page);
    await jump.click();
    await expect.poll(() => [search(page).get("from"), search(page).get("to")]).toEqual([from, lastDay]);
    await expectTotal(page, inRange.total);
    await expectShown(page, inRange);
  });

  test("a row's details open and close from the keyboard", async ({ page }) => {
    const first = (await list(page, "limit=1")).transactions[0];
    if (!first) throw new Error("the whale has no transactions");
    await open(page, `${PROFILE}?section=transactions`);
    const toggle = page.getByRole("button", { name: `Details of transaction ${first.id}` });
    await toggle.focus();
    await page.keyboard.press("Enter");
    await expect(toggle).toHaveAttribute("aria-expanded", "true");
    const details = page.locator(`#${await toggle.getAttribute("aria-controls")}`);
    await expect(details).toBeVisible();
    await expect(details).toContainText(first.id);
    // Transaction id, date, created, completed: the two instants the compact row leaves out.
    const instants = details.locator("dd");
    await expect(instants.nth(2).locator("time")).toHaveAttribute("datetime", first.created_at);
    if (first.completed_at)
      await expect(instants.nth(3).locator("time")).toHaveAttribute("datetime", first.completed_at);
    else await expect(instants.nth(3)).toHaveText("Pending");
    await expectTableAccessible(page);
    await page.keyboard.press("Space");
    await expect(toggle).toHaveAttribute("aria-expanded", "false");
    await expect(page.getByTestId("transaction-details")).toHaveCount(0);
  });
});

test.describe("transactions at 390 px", () => {
  test.use({ viewport: { width: 390, height: 844 } });
  test.beforeEach(async ({ page }) => {
    await signIn(page, "support_agent");
  });

  test("sorts, filters and says what it ignored on a phone", async ({ page }) => {
    await open(page, `${PROFILE}?per_page=7`);
    await expect(page.getByTestId("ignored-params")).toContainText("per_page=7");
    await expectTableAccessible(page);
    await page.getByLabel("Sort", { exact: true }).selectOption("amount_desc");
    await expect.poll(() => search(page).get("sort")).toBe("amount_desc");
    await expectShown(page, await list(page, "sort=amount_desc&limit=20"));
    await page.getByLabel("Status", { exact: true }).selectOption("completed");
    await expectShown(page, await list(page, "sort=amount_desc&status=completed&limit=20"));
    await expectTableAccessible(page);
  });

  test("the date-range empty state and the id lookup pass axe", async ({ page }) => {
    await open(page, `${PROFILE}?from=2000-01-01&to=2000-12-31`);
    await expect(page.getByRole("button", { name: /^Show the 30 days up to / })).toBeVisible();
    await expectTableAccessible(page);
    await open(page, `${PROFILE}?transaction_id=NO-SUCH-TX`);
    await expect(page.getByText("No transaction with id “NO-SUCH-TX” for this player")).toBeVisible();
    await expectTableAccessible(page);
  });
});

async function firstWithTransactions(page: Page, ids: string[]): Promise<string | undefined> {
  for (const id of ids) {
    const { total } = await apiGet<TransactionListData>(
      page.request,
      `/players/${id}/transactions?limit=1`,
      WIRE_DECIMALS.transactionList,
    );
    if (total > 20) return id;
  }
  return undefined;
}

/** Screenshots for review (test-results/…/screenshots), of the table's states at both sizes. */
for (const size of SIZES) {
  test.describe(`transactions table screenshots at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });

    async function shoot(page: Page, testInfo: TestInfo, name: string) {
      const card = page.locator('[aria-labelledby="transactions-title"]');
      await card.scrollIntoViewIfNeeded();
      const file = path.join(testInfo.project.outputDir, "screenshots", `table-${name}-${size.name}.png`);
      const body = await card.screenshot({ path: file });
      await testInfo.attach(name, { body, contentType: "image/png" });
      // Nothing in the table is cut off: its scroll region is as wide as its content at 1440 px.
      const table = page.getByRole("table", { name: /^Transactions,/ });
      if (size.width >= 1440 && (await table.count()) > 0) {
        const overflow = await table.evaluate((t) => t.scrollWidth - (t.parentElement?.clientWidth ?? 0));
        expect(overflow, name).toBeLessThanOrEqual(0);
      }
    }

    test("BTC, JPY, sorted whale, details, ignored values, empty range", async ({ page }, testInfo) => {
      await signIn(page, "support_agent");
      const { players } = await apiGet<{ players: { id: string; currency: string }[] }>(
        page.request,
        "/players?limit=100",
        WIRE_DECIMALS.playerSearch,
      );
      for (const currency of ["BTC", "JPY"]) {
        const id = await firstWithTransactions(
          page,
          players.filter((p) => p.currency === currency).map((p) => p.id),
        );
        expect(id, `a ${currency} player with transactions`).toBeTruthy();
        await open(page, `/players/${id}?sort=amount_desc`);
        await expect(visibleTransactions(page).first()).toBeVisible();
        await shoot(page, testInfo, currency.toLowerCase());
      }
      await open(page, `${PROFILE}?sort=amount_desc`);
      await expect(visibleTransactions(page).first()).toBeVisible();
      await shoot(page, testInfo, "whale-by-amount");
      if (size.width >= 768) {
        await page
          .getByRole("button", { name: /^Details of transaction/ })
          .first()
          .click();
        await expect(page.getByTestId("transaction-details")).toBeVisible();
        await shoot(page, testInfo, "details");
      }
      await open(page, `${PROFILE}?event_type=bogus&per_page=7&sort=sideways&status=x`);
      await expect(visibleTransactions(page).first()).toBeVisible();
      await shoot(page, testInfo, "ignored");
      await open(page, `${PROFILE}?from=2000-01-01&to=2000-12-31`);
      await expect(page.getByRole("button", { name: /^Show the 30 days up to / })).toBeVisible();
      await shoot(page, testInfo, "empty-range");
    });
  });
}
