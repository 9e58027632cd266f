import { type APIRequestContext, type BrowserContext, expect, type Page, test } from "@playwright/test";
import type { AuditListData } from "../../features/audit/client/queries.ts";
import type { PlayerPeriodSummaryData, PlayerProfileData } from "../../features/players/client/queries.ts";
import type { TransactionListData } from "../../features/transactions/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { apiGet, open, signIn, visibleTransactions, WHALE } from "./helpers.ts";

/*
 * The player page's first view is rendered on the server (app/(app)/players/[playerId]/first-view.ts): its
 * HTML already holds the profile and the first page of transactions, read as the signed-in user through the
 * API's own read definitions (features/<name>/reads: scopes, masking, audit), and the browser does not ask for them again.
 */

/** The page's HTML as the server sends it, before any script runs. */
async function pageHtml(request: APIRequestContext, path: string): Promise<string> {
  const response = await request.get(path);
  expect(response.status()).toBe(200);
  return response.text();
}

/** The signed-in user's id and sign-in session id (the audit trail's subject and session id). */
async function whoAmI(request: APIRequestContext): Promise<{ userId: string; sessionId: string }> {
  const session = (await (await request.get("/api/auth/session")).json()) as {
    sessionId: string;
    user: { id: string };
  };
  expect(session.sessionId).toBeTruthy();
  expect(session.user.id).toBeTruthy();
  return { userId: session.user.id, sessionId: session.sessionId };
}

test.describe("server-rendered first view, without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("a support agent's HTML holds name, balance digits and the first transaction, contact masked", async ({
    page,
  }) => {
    await signIn(page, "support_agent");
    const profile = await apiGet<PlayerProfileData>(
      page.request,
      `/players/${WHALE}`,
      WIRE_DECIMALS.playerProfile,
    );
    const list = await apiGet<TransactionListData>(
      page.request,
      `/players/${WHALE}/transactions?limit=20&offset=0`,
      WIRE_DECIMALS.transactionList,
    );
    const html = await pageHtml(page.request, `/players/${WHALE}`);
    // Money as the API writes it, digit for digit (the cache's copy in the page), and a key figure.
    expect(html).toContain(profile.balances.total_balance);
    expect(html).toContain(profile.kpi.ltd);
    expect(html).toContain(list.transactions[0]?.id ?? "missing");
    // The support agent's own API answer is masked; no full address of that domain is anywhere in the page.
    const masked = profile.email ?? "";
    expect(masked).toContain("***");
    expect(html).toContain(masked);
    const domain = masked.slice(masked.indexOf("@"));
    expect(html).not.toMatch(new RegExp(`[\\w.+-]{2,}${escapeRegExp(domain)}`));

    await page.goto(`/players/${WHALE}?section=transactions`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(profile.name);
    await expect(page.getByTestId("transaction-row")).toHaveCount(list.transactions.length);
  });

  test("a VIP manager's HTML holds the full contact data and the filtered first page", async ({ page }) => {
    await signIn(page, "vip_manager");
    const profile = await apiGet<PlayerProfileData>(
      page.request,
      `/players/${WHALE}`,
      WIRE_DECIMALS.playerProfile,
    );
    const list = await apiGet<TransactionListData>(
      page.request,
      `/players/${WHALE}/transactions?event_type=withdrawal&limit=10&offset=10`,
      WIRE_DECIMALS.transactionList,
    );
    expect(profile.email).toMatch(/^[^*]+@/);
    const html = await pageHtml(page.request, `/players/${WHALE}?event_type=withdrawal&per_page=10&page=2`);
    expect(html).toContain(profile.email ?? "missing");
    expect(html).toContain(profile.balances.cash_balance);
    expect(html).toContain(list.transactions[0]?.id ?? "missing");

    await page.goto(`/players/${WHALE}?event_type=withdrawal&per_page=10&page=2`);
    await expect(page.getByRole("heading", { level: 1 })).toContainText(profile.name);
    await expect(page.getByTestId("transaction-row")).toHaveCount(list.transactions.length);
  });

  for (const viewport of [
    { width: 1440, height: 900 },
    { width: 390, height: 844 },
  ]) {
    test(`the first paint at ${viewport.width}×${viewport.height} shows the player and the transactions`, async ({
      page,
    }, testInfo) => {
      await page.setViewportSize(viewport);
      await signIn(page, "support_agent");
      await page.goto(`/players/${WHALE}?section=transactions`);
      await expect(page.getByRole("heading", { level: 1 })).toBeInViewport();
      // Rows at desktop widths, cards on a phone: filled from the server's data, no skeleton.
      await expect(visibleTransactions(page).first()).toBeVisible();
      await expect(page.getByText("Loading the player…")).toHaveCount(0);
      await page.screenshot({
        path: testInfo.outputPath(`first-paint-${viewport.width}.png`),
        fullPage: true,
      });
    });
  }

  test("the server's reads are in the audit trail as the user's profile and transactions reads", async ({
    page,
    browser,
    baseURL,
  }) => {
    const player = "P000042";
    await signIn(page, "vip_manager");
    const me = await whoAmI(page.request);
    // No script runs in this page: every read recorded for this session was made by the server.
    await page.goto(`/players/${player}?event_type=deposit&per_page=50`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    const admin = await signedInContext(browser, baseURL, "admin");
    await expect(async () => {
      const trail = await apiGet<AuditListData>(
        admin.request,
        `/players/${player}/audit?operation=profile&operation=transactions&limit=100`,
        WIRE_DECIMALS.auditList,
      );
      const mine = trail.events.filter((e) => e.session_id === me.sessionId);
      const byOperation = Object.fromEntries(mine.map((e) => [e.operation, e]));
      expect(mine).toHaveLength(2);
      expect(byOperation.profile).toMatchObject({
        subject: me.userId,
        filters: {},
        scopes: ["players:read", "players:pii"],
      });
      expect(byOperation.transactions).toMatchObject({
        subject: me.userId,
        filters: { event_type: "deposit", limit: "50", offset: "0" },
      });
      expect(byOperation.profile?.request_id).not.toBe(byOperation.transactions?.request_id);
    }).toPass({ timeout: 60_000 });
    await admin.close();
  });

  test("the Overview's summary is read on the server for the period in the URL, and only on the Overview", async ({
    page,
    browser,
    baseURL,
  }) => {
    const [overview, table] = ["P000044", "P000043"];
    await signIn(page, "vip_manager");
    const me = await whoAmI(page.request);
    const summary = await apiGet<PlayerPeriodSummaryData>(
      page.request,
      `/players/${WHALE}/summary?period=90d`,
      WIRE_DECIMALS.playerSummary,
    );
    const html = await pageHtml(page.request, `/players/${WHALE}?period=90d`);
    expect(html).toContain(summary.deposits.sum);
    expect(html).toContain(summary.gross_gaming_revenue);

    await page.goto(`/players/${overview}?period=90d`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    await page.goto(`/players/${table}?section=transactions`);
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();

    const admin = await signedInContext(browser, baseURL, "admin");
    const summaryReads = async (player: string) =>
      (
        await apiGet<AuditListData>(
          admin.request,
          `/players/${player}/audit?operation=summary&limit=100`,
          WIRE_DECIMALS.auditList,
        )
      ).events.filter((e) => e.session_id === me.sessionId);
    await expect(async () => {
      const reads = await summaryReads(overview);
      expect(reads).toHaveLength(1);
      expect(reads[0]).toMatchObject({ subject: me.userId, filters: { period: "90d" } });
    }).toPass({ timeout: 60_000 });
    // The page opened on Transactions did not read (nor audit) a summary it does not show.
    expect(await summaryReads(table)).toHaveLength(0);
    await admin.close();
  });
});

test("the browser does not fetch the first view again, and a filter change still fetches", async ({
  page,
}) => {
  await signIn(page, "vip_manager");
  const playerReads = recordPlayerReads(page, WHALE);
  await open(page, `/players/${WHALE}?event_type=deposit`);
  await expect(page.getByTestId("transaction-row").first()).toBeVisible();
  await page.waitForLoadState("networkidle");
  const firstPage = `/api/v1/players/${WHALE}/transactions?event_type=deposit&limit=20&offset=0`;
  expect(playerReads).not.toContain(`/api/v1/players/${WHALE}`);
  expect(playerReads).not.toContain(firstPage);

  const nextPage = page.waitForRequest((r) => r.url().endsWith("event_type=deposit&limit=20&offset=20"));
  await page.getByRole("button", { name: "Next page" }).click();
  await nextPage;
  await expect(page).toHaveURL(/page=2/);
});

test("the Overview shows its summary without asking for it, and another period is fetched", async ({
  page,
}) => {
  await signIn(page, "vip_manager");
  const summary = `/api/v1/players/${WHALE}/summary`;
  const playerReads = recordPlayerReads(page, WHALE);
  const summaryReads = () => playerReads.filter((read) => read.split("?")[0] === summary);
  await open(page, `/players/${WHALE}`);
  await page.waitForLoadState("networkidle");
  expect(summaryReads()).toEqual([]);
  const nextPeriod = page.waitForRequest((r) => r.url().includes("/summary?period=90d"));
  const panel = page.getByRole("region", { name: "Summary" });
  await expect(page.getByTestId("period-summary")).toHaveAttribute("aria-busy", "false");
  await panel.getByRole("radio", { name: "90 days" }).check();
  await nextPeriod;
  expect(summaryReads()).toEqual([`${summary}?period=90d`]);
});

test("a client navigation's render reads nothing on the server: the browser reads the new filters once", async ({
  page,
}) => {
  await signIn(page, "vip_manager");
  const path = `/players/${WHALE}?event_type=bet&per_page=10&page=3`;
  const list = await apiGet<TransactionListData>(
    page.request,
    `/players/${WHALE}/transactions?event_type=bet&limit=10&offset=20`,
    WIRE_DECIMALS.transactionList,
  );
  const firstId = list.transactions[0]?.id ?? "missing";
  // What Next's router fetches when the URL's filters change (an RSC request from fetch()).
  const navigation = await page.request.get(path, { headers: { RSC: "1", "Sec-Fetch-Dest": "empty" } });
  expect(navigation.status()).toBe(200);
  expect(await navigation.text()).not.toContain(firstId);
  // The same URL opened as a document carries that page.
  const document = await page.request.get(path, { headers: { "Sec-Fetch-Dest": "document" } });
  expect(await document.text()).toContain(firstId);
});

/** The player's API reads the page makes from now on, as path and query. */
function recordPlayerReads(page: Page, playerId: string): string[] {
  const reads: string[] = [];
  page.on("request", (request) => {
    const url = new URL(request.url());
    if (url.pathname.startsWith(`/api/v1/players/${playerId}`)) reads.push(`${url.pathname}${url.search}`);
  });
  return reads;
}

async function signedInContext(
  browser: import("@playwright/test").Browser,
  baseURL: string | undefined,
  role: "admin",
): Promise<BrowserContext> {
  const context = await browser.newContext({ baseURL });
  const page: Page = await context.newPage();
  await signIn(page, role);
  return context;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
