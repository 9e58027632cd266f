import { expect, type Page, test } from "@playwright/test";
import { formatDateTimeInPage, open, problemResponse, signIn } from "./helpers.ts";

/** The trail's region on the profile page. */
const trailOf = (page: Page) => page.getByRole("region", { name: "Audit trail" });

/** Reloads until the first visit's reads (written in the background) show in the trail. */
async function waitForEarlierVisit(page: Page, text: RegExp | string) {
  await expect(async () => {
    await page.reload();
    const trail = page.getByRole("region", { name: /Reads of player P000042's data/ });
    await expect(trail.getByTestId("audit-entry").filter({ hasText: text }).first()).toBeVisible({
      timeout: 30_000,
    });
  }).toPass({ timeout: 120_000 });
}

test.describe("audit trail on the profile page", () => {
  test.setTimeout(150_000);
  test("names the reader, and groups the reads of one page view into one entry with an expander", async ({
    page,
  }) => {
    await signIn(page, "admin");
    await open(page, "/players/P000042?section=audit");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
    await waitForEarlierVisit(page, /Viewed the profile: profile, transactions/);
    // Other tests' readers (e.g. a support agent) may be newer: take the admin's own page view.
    const entry = trailOf(page)
      .getByTestId("audit-entry")
      .filter({ hasText: "Viewed the profile:" })
      .filter({ hasText: "demo-admin" })
      .first();
    // The person's name, with the token subject beside it: not the subject alone.
    await expect(entry.getByText("Alex Admin", { exact: true })).toBeVisible();
    await expect(entry.getByText("Alex Admin", { exact: true })).toHaveAttribute("title", "demo-admin");
    await expect(entry).toContainText("demo-admin · demo");
    // One row for the page view; its reads on demand.
    const expander = entry.getByRole("button", { name: /Show the \d+ reads/ });
    await expect(expander).toHaveAttribute("aria-expanded", "false");
    const count = Number((await expander.textContent())?.match(/\d+/)?.[0] ?? 0);
    // At least the server-rendered reads (profile, transactions); the browser's own reads join them when they
    // land within the 2 s window, which a loaded machine does not promise.
    expect(count).toBeGreaterThanOrEqual(2);
    await expander.click();
    await expect(entry.getByRole("button", { name: /Hide the \d+ reads/ })).toHaveAttribute(
      "aria-expanded",
      "true",
    );
    const reads = trailOf(page).getByTestId("audit-read");
    await expect(reads.filter({ hasText: "Viewed profile" }).first()).toBeVisible();
    await expect(reads.filter({ hasText: "Listed transactions" }).first()).toBeVisible();
    await expect(reads).toHaveCount(count);
  });

  test("times follow the page's time-zone switch", async ({ browser }) => {
    const context = await browser.newContext({ timezoneId: "Asia/Kolkata" });
    const page = await context.newPage();
    await signIn(page, "admin");
    await open(page, "/players/P000042?section=audit&tz=utc");
    await waitForEarlierVisit(page, /Viewed/);
    const time = trailOf(page).getByTestId("audit-entry").first().locator("time");
    const iso = (await time.getAttribute("datetime")) ?? "";
    const inZone = (timeZone: string) => formatDateTimeInPage(page, iso, timeZone, true);
    await expect(time).toHaveText(await inZone("UTC"));
    await page.getByRole("radio", { name: /Local/ }).check();
    await expect(page).toHaveURL(/tz=local/);
    await expect(time).toHaveText(await inZone("Asia/Kolkata"));
    expect(await inZone("Asia/Kolkata")).not.toBe(await inZone("UTC"));
    await context.close();
  });

  test("a failed read shows the request id and a retry that recovers", async ({ page }) => {
    await signIn(page, "admin");
    let failing = true;
    await page.route("**/api/v1/players/P000042/audit?*", async (route) => {
      if (!failing) return route.continue();
      await route.fulfill(
        problemResponse({
          type: "/problems/forbidden",
          title: "Forbidden",
          status: 403,
          detail: "Missing scope audit:read.",
          request_id: "e2e-audit-denied-1",
        }),
      );
    });
    await open(page, "/players/P000042?section=audit");
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the audit trail" });
    await expect(alert).toContainText("Only admins (scope audit:read) can see the audit trail.");
    await expect(alert).toContainText("Request id: e2e-audit-denied-1");
    failing = false;
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByRole("region", { name: /Reads of player P000042's data/ })).toBeVisible();
    await expect(alert).toHaveCount(0);
  });

  test("Load more follows the cursor to the next page; rows already shown stay", async ({ page }) => {
    await signIn(page, "admin");
    // Pages of two instead of 25, so that the reads of a couple of visits fill more than one page.
    const cursors: (string | null)[] = [];
    await page.route("**/api/v1/players/P000042/audit?*", (route) => {
      cursors.push(new URL(route.request().url()).searchParams.get("cursor"));
      return route.continue({ url: route.request().url().replace("limit=25", "limit=2") });
    });
    await open(page, "/players/P000042?section=audit");
    const trail = trailOf(page);
    await expect(async () => {
      await page.reload();
      await expect(trail.getByText(/^Showing 2 reads of ([4-9]|\d{2,}) in \d entr/)).toBeVisible({
        timeout: 15_000,
      });
    }).toPass({ timeout: 90_000 });
    const firstRow = await trail.getByTestId("audit-entry").first().locator("time").getAttribute("datetime");
    await trail.getByRole("button", { name: "Load more" }).click();
    await expect(trail.getByText(/^Showing 4 reads of/)).toBeVisible();
    expect(cursors.at(-1)).toMatch(/^\d+$/);
    await expect(trail.getByTestId("audit-entry").first().locator("time")).toHaveAttribute(
      "datetime",
      firstRow ?? "",
    );
  });

  test("other roles do not see it", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, "/players/P000042?section=audit");
    await expect(page.getByRole("tab", { name: "Audit" })).toHaveCount(0);
    await expect(page.getByTestId("player-id")).toHaveText("P000042");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toHaveCount(0);
  });
});
