import { expect, type Page, test } from "@playwright/test";
import type {
  TransactionFacetsData,
  TransactionListData,
} from "../../features/transactions/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { EVENT_TYPE_LABELS } from "../../platform/format/labels.ts";
import {
  apiGet,
  formatCountInPage,
  formatMoneyInPage,
  open,
  problemResponse,
  ready,
  signIn,
  tableRows,
  WHALE,
} from "./helpers.ts";

const PROFILE = `/players/${WHALE}`;
/** The profile's Transactions section. */
const TABLE = `${PROFILE}?section=transactions`;

const range = (page: Page) => page.getByTestId("page-range");
const list = (page: Page, query: string) =>
  apiGet<TransactionListData>(
    page.request,
    `${PROFILE}/transactions?${query}`,
    WIRE_DECIMALS.transactionList,
  );
const search = (page: Page) => new URL(page.url()).searchParams;

async function expectRange(page: Page, first: number, last: number, total: number) {
  const [a, b, t] = await Promise.all([first, last, total].map((n) => formatCountInPage(page, n)));
  await expect(range(page)).toHaveText(total === 0 ? `0 of ${t}` : `${a}–${b} of ${t}`);
}

/** Opens the whale, filters by Bet and goes to page 2: three history entries. Returns the first page of bets. */
async function betsSecondPage(page: Page): Promise<TransactionListData> {
  await open(page, TABLE);
  await page.getByRole("button", { name: /^Event type:/ }).click();
  await page.getByRole("checkbox", { name: /^Bet/ }).check();
  await page.keyboard.press("Escape");
  const bets = await list(page, "event_type=bet&limit=20");
  await expectRange(page, 1, 20, bets.total);
  await page.getByRole("button", { name: "Next page" }).click();
  await expectRange(page, 21, 40, bets.total);
  // The range follows the URL at once; the previous page's rows stay until the next page has arrived.
  await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "false");
  return bets;
}

/** The ids of the rows shown, read from the page, against the API's page. */
async function expectRowsToBe(page: Page, expected: TransactionListData) {
  await expect(page.getByTestId("transaction-row")).toHaveCount(expected.transactions.length);
  const rows = await tableRows(page);
  for (const [i, t] of expected.transactions.entries()) {
    const row = rows[i] ?? {};
    expect(row.event_name, `row ${i}`).toBe(t.event_name);
    expect(row.event_type).toBe(EVENT_TYPE_LABELS[t.event_type]);
    expect(row.amount).toBe(await formatMoneyInPage(page, t.amount, t.currency, true));
    expect(row.payment_method).toBe(t.payment_method ?? "—");
    expect(row.event_note).toBe(t.event_note ?? "—");
    expect(row.created_by).toBe(t.created_by);
    expect(row.status).toBe(t.completed_at === null ? "Pending" : "Completed");
  }
  const dates = await page
    .getByTestId("transaction-row")
    .locator('td[data-column="date"] time')
    .evaluateAll((els) => els.map((e) => e.getAttribute("datetime")));
  expect(dates).toEqual(expected.transactions.map((t) => t.date));
}

test.describe("transactions table", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "support_agent");
  });

  test("the first page shows the 20 newest transactions and the exact total", async ({ page }) => {
    const api = await list(page, "limit=20");
    await open(page, TABLE);
    await expectRange(page, 1, 20, api.total);
    await expectRowsToBe(page, api);
    // Amounts are coloured by direction and carry their sign in text.
    const first = api.transactions[0];
    if (first) {
      const cell = page.getByTestId("transaction-row").first().locator('td[data-column="amount"] span');
      await expect(cell).toHaveClass(first.amount.startsWith("-") ? /text-red-700/ : /text-emerald-700/);
    }
  });

  test("filters by event type with the keyboard", async ({ page }) => {
    await open(page, `${PROFILE}?page=3`);
    await expect(page.getByTestId("transaction-row").first()).toBeVisible();
    const trigger = page.getByRole("button", { name: /^Event type:/ });
    await trigger.focus();
    await page.keyboard.press("Enter");
    const deposit = page.getByRole("checkbox", { name: /^Deposit/ });
    await expect(deposit).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.press("Tab");
    await expect(page.getByRole("checkbox", { name: /^Withdrawal/ })).toBeFocused();
    await page.keyboard.press("Space");
    await page.keyboard.press("Escape");
    await expect(trigger).toBeFocused();
    await expect(trigger).toHaveAccessibleName("Event type: Deposit, Withdrawal");

    await expect.poll(() => search(page).getAll("event_type")).toEqual(["deposit", "withdrawal"]);
    expect(search(page).get("page")).toBeNull(); // a new filter starts at page 1
    const api = await list(page, "event_type=deposit&event_type=withdrawal&limit=20");
    await expectRange(page, 1, 20, api.total);
    await expectRowsToBe(page, api);
  });

  test("filters by event name, offering the names the player has", async ({ page }) => {
    const facets = await apiGet<TransactionFacetsData>(
      page.request,
      `${PROFILE}/transaction-facets`,
      WIRE_DECIMALS.transactionFacets,
    );
    await open(page, TABLE);
    await page.getByRole("button", { name: /^Event name:/ }).click();
    const boxes = page.getByRole("checkbox");
    await expect(boxes).toHaveCount(facets.event_names.length);
    for (const name of facets.event_names) {
      await expect(page.getByRole("checkbox", { name: new RegExp(`^${name.value}`) })).toBeVisible();
    }
    await page.getByRole("checkbox", { name: /^Card Deposit/ }).check();
    await page.getByRole("checkbox", { name: /^Card Withdrawal/ }).check();
    await page.keyboard.press("Escape");
    await expect.poll(() => search(page).getAll("event_name")).toEqual(["Card Deposit", "Card Withdrawal"]);
    const api = await list(page, "event_name=Card%20Deposit&event_name=Card%20Withdrawal&limit=20");
    expect(api.total).toBe(
      facets.event_names.filter((n) => n.value.startsWith("Card ")).reduce((s, n) => s + n.count, 0),
    );
    await expectRange(page, 1, Math.min(20, api.total), api.total);
    await expectRowsToBe(page, api);
  });

  test("filters by creator", async ({ page }) => {
    await open(page, TABLE);
    await page.getByLabel("Created by").selectOption("VIP Manager");
    await expect.poll(() => search(page).get("created_by")).toBe("VIP Manager");
    const api = await list(page, "created_by=VIP%20Manager&limit=20");
    await expectRange(page, 1, Math.min(20, api.total), api.total);
    await expectRowsToBe(page, api);
  });

  test("filters by date range, typed or from a preset", async ({ page }) => {
    await open(page, TABLE);
    // On a loaded machine the filter bar can still be hydrating when the page reports ready; a date typed into
    // it then never reaches React. Type again until the URL shows it, as a person would.
    for (const [label, key, day] of [
      ["From", "from", "2026-03-01"],
      ["To", "to", "2026-03-31"],
    ] as const) {
      await expect(async () => {
        await page.getByLabel(label).fill(day);
        await expect.poll(() => search(page).get(key), { timeout: 3_000 }).toBe(day);
      }).toPass({ timeout: 30_000 });
    }
    await expect
      .poll(() => [search(page).get("from"), search(page).get("to")])
      .toEqual(["2026-03-01", "2026-03-31"]);
    const march = await list(page, "from_date=2026-03-01&to_date=2026-03-31&limit=20");
    await expectRange(page, 1, 20, march.total);
    await expectRowsToBe(page, march);

    await page.getByRole("button", { name: "Last 90 days" }).click();
    await expect(page.getByRole("button", { name: "Last 90 days" })).toHaveAttribute("aria-pressed", "true");
    const to = new Date().toISOString().slice(0, 10);
    const from = new Date(Date.now() - 89 * 86_400_000).toISOString().slice(0, 10);
    await expect.poll(() => [search(page).get("from"), search(page).get("to")]).toEqual([from, to]);
    await expect(page.getByLabel("From")).toHaveValue(from);
    const recent = await list(page, `from_date=${from}&to_date=${to}&limit=20`);
    await expectRange(page, recent.total ? 1 : 0, Math.min(20, recent.total), recent.total);

    await page.getByRole("button", { name: "All dates" }).click();
    await expect.poll(() => search(page).has("from")).toBe(false);
  });

  test("pages forward, to the end, back and to the start, and changes the page size", async ({ page }) => {
    const total = (await list(page, "limit=1")).total;
    const lastPage = Math.ceil(total / 20);
    await open(page, TABLE);
    await expectRange(page, 1, 20, total);

    await page.getByRole("button", { name: "Next page" }).click();
    await expectRange(page, 21, 40, total);
    expect(search(page).get("page")).toBe("2");
    await expectRowsToBe(page, await list(page, "limit=20&offset=20"));

    await page.getByRole("button", { name: "Last page" }).click();
    await expectRange(page, (lastPage - 1) * 20 + 1, total, total);
    expect(search(page).get("page")).toBe(String(lastPage));
    await expect(page.getByRole("button", { name: "Next page" })).toBeDisabled();

    await page.getByRole("button", { name: "Previous page" }).click();
    await expectRange(page, (lastPage - 2) * 20 + 1, (lastPage - 1) * 20, total);

    await page.getByRole("button", { name: "First page" }).click();
    await expectRange(page, 1, 20, total);
    expect(search(page).get("page")).toBeNull();
    await expect(page.getByRole("button", { name: "Previous page" })).toBeDisabled();

    for (const size of [10, 50, 100]) {
      await page.getByLabel("Rows per page").selectOption(String(size));
      await expectRange(page, 1, size, total);
      await expect(page.getByTestId("transaction-row")).toHaveCount(size);
    }
    expect(search(page).get("per_page")).toBe("100");
  });

  test("the URL restores the view: reload, another browser, back and forward", async ({ page, browser }) => {
    const bets = await betsSecondPage(page);
    const shared = page.url();
    const rows = await tableRows(page);

    await page.reload();
    await ready(page);
    await expectRange(page, 21, 40, bets.total);
    expect(await tableRows(page)).toEqual(rows);
    await expect(page.getByRole("button", { name: "Event type: Bet" })).toBeVisible();

    // The link, opened by someone else in another browser, shows the same view.
    const other = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    try {
      const colleague = await other.newPage();
      await signIn(colleague, "vip_manager");
      await open(colleague, shared);
      await expect(colleague.getByTestId("page-range")).toHaveText((await range(page).textContent()) ?? "");
      expect(await tableRows(colleague)).toEqual(rows);
    } finally {
      await other.close();
    }

    await page.goBack();
    await expectRange(page, 1, 20, bets.total);
    await page.goBack();
    await expect.poll(() => search(page).has("event_type")).toBe(false);
    await expect(page.getByRole("button", { name: "Event type: Any" })).toBeVisible();
    await page.goForward();
    await expect(page.getByRole("button", { name: "Event type: Bet" })).toBeVisible();
    await expectRange(page, 1, 20, bets.total);
  });

  test("back and forward after a reload follow the URL while the server is slow", async ({ page }) => {
    // After a reload the router has no copy of the earlier entries and asks the server for each one on
    // back/forward. Those requests are held here, so every step lands while the server has not answered.
    const bets = await betsSecondPage(page);
    await page.reload();
    await ready(page);

    const held: (() => void)[] = [];
    const answered: string[] = [];
    await page.route(`**${PROFILE}?*`, async (route) => {
      if (route.request().headers().rsc !== "1") return route.fallback();
      await new Promise<void>((resolve) => held.push(resolve));
      await route.fallback();
      answered.push(route.request().url());
    });
    const releaseAll = () => {
      for (const release of held.splice(0)) release();
    };

    await page.goBack();
    await expectRange(page, 1, 20, bets.total);
    await expect(page.getByRole("button", { name: "Event type: Bet" })).toBeVisible();
    // Let the server answer that step, then step back again while anything it asks next is held.
    await expect.poll(() => held.length).toBeGreaterThan(0);
    releaseAll();
    await expect.poll(() => answered.length).toBeGreaterThan(0);
    await page.waitForTimeout(200);
    await page.goBack();
    await expect.poll(() => search(page).has("event_type")).toBe(false);
    await expect(page.getByRole("button", { name: "Event type: Any" })).toBeVisible({ timeout: 10_000 });
    await expectRange(page, 1, 20, (await list(page, "limit=20")).total);

    await page.goForward();
    await expect(page.getByRole("button", { name: "Event type: Bet" })).toBeVisible({ timeout: 10_000 });
    await expectRange(page, 1, 20, bets.total);
    releaseAll();
    await page.unrouteAll({ behavior: "wait" });
  });

  test("the previous page stays on screen while the next one loads", async ({ page }) => {
    await open(page, TABLE);
    await expect(page.getByTestId("transaction-row")).toHaveCount(20);
    const before = await tableRows(page);

    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/api/v1/players/${WHALE}/transactions?*offset=20*`, async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole("button", { name: "Next page" }).click();
    await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "true");
    expect(await tableRows(page)).toEqual(before);
    release();
    await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "false");
    expect(await tableRows(page)).not.toEqual(before);
  });

  test("the first load shows a skeleton of the table", async ({ page }) => {
    let release: () => void = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route(`**/api/v1/players/${WHALE}/transactions?*`, async (route) => {
      await held;
      await route.continue();
    });
    // The browser loads the first page itself only where the server does not (tz=local: the browser's zone).
    await open(page, `${TABLE}&tz=local`);
    await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "true");
    await expect(page.getByRole("table").locator("tbody tr")).toHaveCount(20);
    await expect(page.getByTestId("transaction-row")).toHaveCount(0);
    release();
    await expect(page.getByTestId("transaction-row")).toHaveCount(20);
  });

  test("Export CSV downloads every transaction the filters match, as shown", async ({ page }) => {
    const api = await list(page, "event_type=deposit&event_type=withdrawal&limit=100");
    await open(page, `${PROFILE}?event_type=deposit&event_type=withdrawal&page=2`);
    const button = page.getByRole("button", {
      name: `Export CSV: these ${await formatCountInPage(page, api.total)} transactions`,
    });
    await expect(button).toBeEnabled();
    const download = page.waitForEvent("download");
    await button.focus();
    await page.keyboard.press("Enter");
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${WHALE}_transactions_deposit-withdrawal.csv`);
    const text = await (await file.createReadStream()).toArray();
    const lines = Buffer.concat(text).toString("utf8").split("\r\n");
    expect(lines[0]).toMatch(/^player_id,id,date,event_type,/);
    expect(lines.pop()).toBe("");
    // Every match, not only the page on screen: the header plus one line per transaction.
    expect(lines).toHaveLength(api.total + 1);
    expect(lines.slice(1).every((l) => /^P000007,[^,]+,[^,]+,(deposit|withdrawal),/.test(l))).toBe(true);
    expect(lines[1]?.split(",")[1]).toBe(api.transactions[0]?.id);
    await expect(page.getByTestId("export-status")).toHaveText(
      `Downloaded ${WHALE}_transactions_deposit-withdrawal.csv`,
    );
  });

  test("Export CSV is off when nothing matches, and a failed export says so", async ({ page }) => {
    await open(page, `${PROFILE}?event_type=bonus&created_by=Nobody`);
    await expect(page.getByText("No transactions match these filters")).toBeVisible();
    await expect(page.getByRole("button", { name: /^Export CSV/ })).toBeDisabled();
    await page.route("**/transactions/export?**", (route) =>
      route.fulfill(
        problemResponse({
          type: "about:blank",
          title: "Unavailable",
          status: 503,
          detail: "Try again shortly.",
          request_id: "req-export-1",
        }),
      ),
    );
    await open(page, `${PROFILE}?event_type=deposit`);
    await page.getByRole("button", { name: /^Export CSV/ }).click();
    await expect(page.getByTestId("export-status")).toContainText(
      "Export failed: Try again shortly. (request id req-export-1)",
    );
  });

  test("an empty result offers to clear the filters", async ({ page }) => {
    // Refunds are made by the system or an admin, never by a VIP manager (prisma/demo-data.ts).
    const filters = "event_type=refund&created_by=VIP+Manager";
    expect((await list(page, `${filters}&limit=1`)).total).toBe(0);
    await open(page, `${PROFILE}?${filters}`);
    await expect(page.getByText("No transactions match these filters")).toBeVisible();
    await page.getByRole("button", { name: "Clear all filters" }).last().click();
    await expect(page.getByTestId("transaction-row")).toHaveCount(20);
    expect(search(page).has("event_type")).toBe(false);
    expect(search(page).has("created_by")).toBe(false);
  });

  test("a failed request shows an error with its request id and a retry", async ({ page }) => {
    let failing = true;
    await page.route(`**/api/v1/players/${WHALE}/transactions?*`, async (route) => {
      if (!failing) return route.continue();
      await route.fulfill(
        problemResponse({
          type: "/problems/internal-error",
          title: "Internal error",
          status: 500,
          detail: "Something went wrong on our side.",
          request_id: "e2e-broken-7",
        }),
      );
    });
    // As above: a first page the browser loads itself (the server renders it for tz=utc).
    await open(page, `${TABLE}&tz=local`);
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the transactions" });
    await expect(alert).toContainText("Request id: e2e-broken-7", { timeout: 15_000 });
    failing = false;
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByTestId("transaction-row")).toHaveCount(20);
  });

  test.describe("in the browser's time zone", () => {
    test.use({ timezoneId: "America/New_York" });

    test("dates and the date filter use the local zone", async ({ page }) => {
      const request = page.waitForRequest(
        (r) => r.url().includes("/transactions?") && r.url().includes("from_date"),
      );
      await open(page, `${PROFILE}?tz=local&from=2026-03-10&to=2026-03-10`);
      const sent = new URL((await request).url()).searchParams;
      // New York is on daylight time (UTC−4) from 8 March 2026.
      expect(sent.get("from_date")).toBe("2026-03-10T04:00:00.000Z");
      expect(sent.get("to_date")).toBe("2026-03-11T03:59:59.999Z");
      await expect(page.getByRole("columnheader", { name: "Date (America/New_York)" })).toBeVisible();
      await expect(page.getByText("Whole days, America/New_York")).toBeVisible();
      const api = await list(
        page,
        "from_date=2026-03-10T04:00:00.000Z&to_date=2026-03-11T03:59:59.999Z&limit=20",
      );
      await expectRange(page, 1, Math.min(20, api.total), api.total);
    });
  });
});
