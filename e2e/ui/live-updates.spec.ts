import { type Browser, expect, type Page, test } from "@playwright/test";
import pg from "pg";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { REFRESH_PLAYER_AGGREGATES_SQL } from "../../platform/db/refresh-player-aggregates.ts";
import { type AppProcess, startApp } from "../../test/support/app-process.ts";
import { E2E_JWT_SECRET } from "../../test/support/e2e-auth.ts";
import {
  dropPostgresDatabase,
  migrateAndSeed,
  postgresReachable,
  recreatePostgresDatabase,
} from "../../test/support/test-db.ts";
import {
  apiGet,
  capture,
  formatMoneyInPage,
  open,
  ready,
  seriousViolations,
  signIn,
  visibleTransactions,
  WHALE,
} from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * Live updates in Chromium, end to end: a production server of its own on a PostgreSQL database of its own
 * (the ui project's shared servers stay untouched), transactions written by SQL with the NOTIFY the ingest
 * consumer sends, in the same transaction. The page must show "3 new transactions — show" without moving the
 * rows on screen, refresh the balances, insert the rows only on the click, and say how its feed is doing.
 * Without PostgreSQL the PostgreSQL half is skipped; the embedded half runs on the ui project's own server.
 */

const DB_NAME = `${process.env.TEST_DB_PREFIX ?? "par"}_e2e_live`;
const PORT = Number(process.env.E2E_POSTGRES_PORT ?? 3102) + 25;

let app: AppProcess | null = null;
let dbUrl = "";
let sql: pg.Client | null = null;
let serial = 0;

test.describe.configure({ mode: "serial" });

test.beforeAll(async () => {
  if (!(await postgresReachable())) return;
  test.setTimeout(300_000);
  dbUrl = await recreatePostgresDatabase(DB_NAME);
  await migrateAndSeed(dbUrl);
  app = await startApp(PORT, {
    DATABASE_URL: dbUrl,
    AUTH_MODE: "demo",
    AUTH_JWT_SECRET: E2E_JWT_SECRET,
    RATE_LIMIT_MAX: "1000000",
    LOG_LEVEL: "warn",
  });
  sql = new pg.Client({ connectionString: dbUrl });
  await sql.connect();
});

test.afterAll(async () => {
  await sql?.end();
  await app?.stop();
  if (dbUrl) await dropPostgresDatabase(DB_NAME);
});

/**
 * Three transactions for the player, newer than any it has, its balances derived again, and the consumer's
 * NOTIFY: all in one transaction, so the nudge is delivered on commit, as the ingest consumer does it.
 */
async function applyBatch(client: pg.Client, playerId: string): Promise<string[]> {
  serial += 1;
  const ids = [1, 2, 3].map((n) => `TLIVE${serial}${n}${Date.now()}`.slice(0, 32));
  await client.query("BEGIN");
  const rows: [string, string, string, string, string | null][] = [
    ["deposit", "Card Deposit", "1000.00", "1 second", "Visa"],
    ["bet", "Casino Bet", "-25.00", "2 seconds", null],
    ["win", "Casino Win", "40.00", "3 seconds", null],
  ];
  for (const [i, [type, name, amount, after, method]] of rows.entries()) {
    await client.query(
      `INSERT INTO transactions (id, player_id, date, event_type, event_name, amount, currency, payment_method,
                                 created_by, created_at, completed_at)
       SELECT $1, p.id, d.at, $3::event_type, $4, $5::numeric, p.currency, $6, 'System', d.at, d.at
       FROM players p,
            LATERAL (SELECT greatest(now(), (SELECT max(date) FROM transactions WHERE player_id = p.id))
                            + $7::interval AS at) d
       WHERE p.id = $2`,
      [ids[i], playerId, type, name, amount, method, after],
    );
  }
  await client.query(REFRESH_PLAYER_AGGREGATES_SQL, [[playerId]]);
  await client.query("SELECT pg_notify('player_changes', $1)", [JSON.stringify([playerId])]);
  await client.query("COMMIT");
  return ids;
}

async function openSignedIn(browser: Browser, size: (typeof SIZES)[number]): Promise<Page> {
  const context = await browser.newContext({
    baseURL: app?.url,
    viewport: { width: size.width, height: size.height },
  });
  const page = await context.newPage();
  await signIn(page, "vip_manager");
  return page;
}

/** Records every status the live indicator shows, so a short-lived one cannot be missed between two looks. */
async function recordIndicator(page: Page): Promise<void> {
  await page.evaluate(() => {
    const w = window as unknown as { liveStatuses: string[] };
    w.liveStatuses = [];
    const el = document.querySelector('[data-testid="live-indicator"]');
    if (!el) throw new Error("no live indicator");
    w.liveStatuses.push(el.getAttribute("data-status") ?? "");
    new MutationObserver(() => w.liveStatuses.push(el.getAttribute("data-status") ?? "")).observe(el, {
      attributes: true,
      attributeFilter: ["data-status"],
    });
  });
}

for (const size of SIZES) {
  test.describe(`live updates on PostgreSQL at ${size.width} px`, () => {
    test("new transactions wait for “show”; balances refresh; the indicator says Live, then Reconnecting…", async ({
      browser,
    }, testInfo) => {
      test.skip(!app, "needs the local PostgreSQL");
      test.setTimeout(180_000);
      const client = sql as pg.Client;
      const page = await openSignedIn(browser, size);
      await open(page, `/players/${WHALE}?section=transactions`);
      const indicator = page.getByRole("status").filter({ hasText: "Live" });
      await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
      await expect(indicator).toContainText("Live");
      const rows = visibleTransactions(page);
      await expect(rows.first()).toBeVisible();
      const firstBefore = await rows.first().textContent();
      const boxBefore = await rows.first().boundingBox();
      const countBefore = await rows.count();
      const totalBefore = await page.getByTestId("header-total").textContent();

      const ids = await applyBatch(client, WHALE);

      const notice = page.getByRole("button", { name: "3 new transactions — show" });
      await expect(notice).toBeVisible();
      // The balances refreshed in place, to what the API now says.
      const profile = await apiGet<{ balances: { total_balance: string }; currency: string }>(
        page.request,
        `/players/${WHALE}`,
        WIRE_DECIMALS.playerProfile,
      );
      const expectedTotal = await formatMoneyInPage(page, profile.balances.total_balance, profile.currency);
      await expect(page.getByTestId("header-total")).toHaveText(expectedTotal);
      expect(expectedTotal).not.toBe(totalBefore);
      // Nothing moved under the pointer: the same first row, at the same place, no new row yet.
      expect(await rows.first().textContent()).toBe(firstBefore);
      expect(await rows.first().boundingBox()).toEqual(boxBefore);
      expect(await rows.count()).toBe(countBefore);
      expect(await seriousViolations(page)).toEqual([]);
      // On a phone the table starts below the fold: show the notice where the reader meets it.
      await notice.evaluate((el) => el.scrollIntoView({ block: "center" }));
      await capture(page, testInfo, `live-new-transactions-${size.name}`, false);

      await notice.click();
      await expect(notice).toBeHidden();
      // Newest first: the three new ones now lead the list, the win (the newest) on top.
      await expect(rows.first()).not.toHaveText(firstBefore ?? "");
      await expect(rows.nth(0)).toContainText(/Casino Win[\s\S]*40\.00/);
      await expect(rows.nth(1)).toContainText(/Casino Bet[\s\S]*25\.00/);
      await expect(rows.nth(2)).toContainText(/Card Deposit[\s\S]*1,000\.00/);
      expect(await rows.count()).toBe(countBefore);
      const shown = await apiGet<{ transactions: { id: string }[] }>(
        page.request,
        `/players/${WHALE}/transactions?limit=3`,
        WIRE_DECIMALS.transactionList,
      );
      expect(shown.transactions.map((t) => t.id).sort()).toEqual([...ids].sort());
      await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "live");
      await capture(page, testInfo, `live-after-show-${size.name}`, false);

      // The server loses its LISTEN connection: the page says Reconnecting…, then Live again, and a change made
      // after that still arrives.
      await recordIndicator(page);
      const killed = await client.query(
        "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = 'par-live-listener' AND datname = current_database()",
      );
      expect(killed.rowCount).toBe(1);
      await expect
        .poll(() => page.evaluate(() => (window as unknown as { liveStatuses: string[] }).liveStatuses))
        .toEqual(["live", "reconnecting", "live"]);
      await applyBatch(client, WHALE);
      await expect(page.getByRole("button", { name: "3 new transactions — show" })).toBeVisible();
      await page.context().close();
    });
  });
}

test("without a feed (the embedded database) the indicator says Updates paused and the page works", async ({
  page,
}, testInfo) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await signIn(page, "vip_manager");
  await open(page, `/players/${WHALE}?section=transactions`);
  await ready(page);
  await expect(page.getByTestId("live-indicator")).toHaveAttribute("data-status", "paused");
  await expect(page.getByTestId("live-indicator")).toHaveText(/Updates paused/);
  await expect(visibleTransactions(page).first()).toBeVisible();
  await expect(page.getByRole("button", { name: /new transactions? — show/ })).toHaveCount(0);
  expect(await seriousViolations(page)).toEqual([]);
  await capture(page, testInfo, "live-paused-desktop", false);
});
