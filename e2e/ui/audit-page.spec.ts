import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { capture, open, problemResponse, seriousViolations, signIn } from "./helpers.ts";
import { SIZES } from "./sizes.ts";

/*
 * The admins' audit page (/audit): every read across players, filters in the URL, cursor paging, the 403 page
 * for other roles, axe and screenshots at a laptop and a phone size.
 */

const entries = (page: Page) =>
  page.getByRole("region", { name: /Reads of player data/ }).getByTestId("audit-entry");

/** Reads of two players by the admin, so that the page has something across players. */
async function readTwoPlayers(page: Page) {
  for (const id of ["P000042", "P000043"]) await open(page, `/players/${id}`);
}

test.describe("the audit page across players", () => {
  test.setTimeout(150_000);

  test("an admin reaches it from the header; filters by player, operation and user live in the URL", async ({
    page,
  }) => {
    await signIn(page, "admin");
    await readTwoPlayers(page);
    await page.getByRole("banner").getByRole("link", { name: "Audit trail" }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(page.getByRole("heading", { name: "Audit trail", level: 1 })).toBeVisible();
    await expect(async () => {
      await page.reload();
      await expect(entries(page).filter({ hasText: "P000043" }).first()).toBeVisible({ timeout: 10_000 });
    }).toPass({ timeout: 90_000 });
    // Other tests' readers (a support agent's search) may be newer: find the admin's own entry.
    await expect(entries(page).filter({ hasText: "Alex Admin" }).first()).toBeVisible();

    await page.getByLabel("Player id").fill("P000042");
    await page.getByLabel("Operation").selectOption("profile");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page).toHaveURL(/player=P000042/);
    await expect(page).toHaveURL(/operation=profile/);
    await expect(entries(page).first()).toContainText("P000042");
    for (const text of await entries(page).allTextContents()) {
      expect(text).toContain("P000042");
      expect(text).toMatch(/Viewed profile|Viewed the profile: profile$/);
    }
    // The URL alone restores the view (shareable): a fresh load keeps the filters in the form.
    await page.reload();
    await expect(page.getByLabel("Player id")).toHaveValue("P000042");
    await expect(entries(page).first()).toContainText("P000042");

    await page.getByLabel("User (name or id)").fill("nobody-at-all");
    await page.getByRole("button", { name: "Apply" }).click();
    await expect(page.getByText("No reads match these filters.")).toBeVisible();
    await page.getByRole("button", { name: "Clear" }).click();
    await expect(page).toHaveURL(/\/audit$/);
    await expect(entries(page).first()).toBeVisible();
  });

  test("Load more follows the cursor with the filters kept", async ({ page }) => {
    await signIn(page, "admin");
    await readTwoPlayers(page);
    const requests: URLSearchParams[] = [];
    await page.route("**/api/v1/audit?*", (route) => {
      const url = new URL(route.request().url());
      url.searchParams.set("limit", "3");
      requests.push(url.searchParams);
      return route.continue({ url: url.toString() });
    });
    await open(page, "/audit?user=demo-admin");
    await expect(page.getByText(/^Showing 3 reads in \d entr/)).toBeVisible();
    await page.getByRole("button", { name: "Load more" }).click();
    await expect(page.getByText(/^Showing 6 reads in \d entr/)).toBeVisible();
    const last = requests.at(-1);
    expect(last?.get("user")).toBe("demo-admin");
    expect(last?.get("cursor")).toMatch(/^\d+$/);
  });

  test("a VIP manager gets a clear 403 page and no header link", async ({ page }) => {
    await signIn(page, "vip_manager");
    await open(page, "/audit");
    await expect(
      page.getByRole("heading", { name: /403 · Only admins can see the audit trail/ }),
    ).toBeVisible();
    await expect(page.getByRole("banner").getByRole("link", { name: "Audit trail" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Back to the player lookup" })).toBeVisible();
  });

  test("a failed load says why, with the request id and a retry", async ({ page }) => {
    await signIn(page, "admin");
    let failing = true;
    await page.route("**/api/v1/audit?*", (route) =>
      failing
        ? route.fulfill(
            problemResponse({
              type: "/problems/unavailable",
              title: "Service unavailable",
              status: 503,
              detail: "The database is unreachable; try again shortly.",
              request_id: "e2e-audit-log-503",
            }),
          )
        : route.continue(),
    );
    await open(page, "/audit");
    const alert = page.getByRole("alert").filter({ hasText: "Could not load the audit trail" });
    await expect(alert).toContainText("e2e-audit-log-503", { timeout: 60_000 });
    failing = false;
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(entries(page).first()).toBeVisible();
  });
});

for (const size of SIZES) {
  test.describe(`the audit page at ${size.width} px`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(150_000);

    test("axe-clean and captured: filled, expanded, filtered, empty, error, 403", async ({
      page,
    }, testInfo) => {
      await signIn(page, "admin");
      await readTwoPlayers(page);
      await open(page, "/audit");
      await expect(entries(page).first()).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-page-filled-${size.name}`);
      // A profile view makes several reads: the admin's view of P000043 is an entry with an expander.
      await open(page, "/audit?user=demo-admin&player=P000043");
      const expander = page.getByRole("button", { name: /Show the \d+ reads/ }).first();
      await expect(async () => {
        await page.reload();
        await expect(expander).toBeVisible({ timeout: 10_000 });
      }).toPass({ timeout: 90_000 });
      await expander.click();
      await expect(page.getByRole("button", { name: /Hide the \d+ reads/ }).first()).toHaveAttribute(
        "aria-expanded",
        "true",
      );
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-page-expanded-${size.name}`);
      await open(page, "/audit?player=P000042&operation=profile");
      await expect(entries(page).first()).toBeVisible();
      await capture(page, testInfo, `audit-page-filtered-${size.name}`);
      await open(page, "/audit?user=nobody-at-all");
      await expect(page.getByText("No reads match these filters.")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-page-empty-${size.name}`);
      await page.route("**/api/v1/audit?*", (route) =>
        route.fulfill(
          problemResponse({
            type: "/problems/unavailable",
            title: "Unavailable",
            status: 503,
            detail: "The database is unreachable; try again shortly.",
            request_id: "e2e-audit-log-503",
          }),
        ),
      );
      await open(page, "/audit");
      await expect(
        page.getByRole("alert").filter({ hasText: "Could not load the audit trail" }),
      ).toContainText("e2e-audit-log-503", { timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-page-error-${size.name}`);
      await page.unrouteAll();
      await open(page, "/players/P000042?section=audit");
      await expect(
        page.getByRole("region", { name: "Audit trail" }).getByTestId("audit-entry").first(),
      ).toBeVisible();
      // The trail alone: the whole profile page is too tall to read in one picture.
      const trail = page.getByRole("region", { name: "Audit trail" });
      const name = `player-audit-trail-${size.name}`;
      const file = path.join(testInfo.project.outputDir, "screenshots", `${name}.png`);
      await testInfo.attach(name, { body: await trail.screenshot({ path: file }), contentType: "image/png" });
    });

    test("403 page for a VIP manager is axe-clean", async ({ page }, testInfo) => {
      await signIn(page, "vip_manager");
      await open(page, "/audit");
      await expect(page.getByTestId("forbidden")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-page-403-${size.name}`);
    });
  });
}
