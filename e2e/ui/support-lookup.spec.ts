import { expect, type Page, test } from "@playwright/test";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { capture, open, seriousViolations, signIn, WHALE } from "./helpers.ts";

/*
 * Issue 23 in Chromium, at a laptop and a phone size, axe on each view: the support agent's lookup (a name
 * without accents, whole e-mail addresses and phone numbers, masked; a transaction id opening its player's
 * table) and the audit page's user by name, readers line and hidden trail reads. Screenshots of each.
 */

const SIZES = [
  { name: "1440", width: 1440, height: 900 },
  { name: "390", width: 390, height: 844 },
] as const;

const searchBox = (page: Page) => page.getByRole("combobox", { name: /^Search by/ });

for (const size of SIZES) {
  test.describe(`support lookup at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(150_000);

    test("a name typed without accents finds Zoé Côté; namesakes show phone digits and last activity", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      await open(page, "/");
      await expect(searchBox(page)).toHaveAccessibleName(
        "Search by name, player ID, or an exact e-mail or phone number",
      );
      await searchBox(page).fill("zoe cote");
      const whale = page.getByRole("option").filter({ hasText: WHALE });
      await expect(whale).toBeVisible();
      await expect(whale).toContainText("Zoé Côté");
      await expect(whale).toContainText(/••• ••• \d\d/);
      await expect(whale).toContainText("Last active");
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `support-lookup-accents-${size.name}`);
    });

    test("a whole e-mail address or phone number finds the player, masked; a part finds nobody", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      await open(page, "/");
      await searchBox(page).fill("Fixture.Player@Example.com");
      const fixture = page.getByRole("option").filter({ hasText: FIXTURE_PLAYER_ID });
      await expect(fixture).toBeVisible();
      await expect(fixture).toContainText("f***@example.com");
      await expect(fixture).toContainText("+44 ••• ••• 01");
      await expect(page.getByText("fixture.player@example.com")).toHaveCount(0);
      await capture(page, testInfo, `support-lookup-email-${size.name}`);

      await searchBox(page).fill("+44 7000000001");
      await expect(page.getByRole("option").filter({ hasText: FIXTURE_PLAYER_ID })).toBeVisible();

      await searchBox(page).fill("fixture.player@example");
      await expect(
        page.getByText(/No player has exactly the e-mail address|Type the whole e-mail address/),
      ).toBeVisible();
      await expect(page.getByRole("option")).toHaveCount(0);
      await searchBox(page).fill("+44 700000000");
      await expect(page.getByText(/No player has the phone number “\+44 700000000”/)).toBeVisible();
      await expect(page.getByRole("option")).toHaveCount(0);
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `support-lookup-no-partial-${size.name}`);

      await searchBox(page).fill("fixture.player@");
      await expect(page.getByTestId("contact-exact-notice")).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `support-lookup-partial-notice-${size.name}`);
    });

    test("a transaction id in any case opens its player's transactions filtered to it", async ({
      page,
    }, testInfo) => {
      await signIn(page);
      await open(page, "/");
      await searchBox(page).fill("fx0401");
      const match = page.getByRole("option").filter({ hasText: "FX0401" });
      await expect(match).toBeVisible();
      await expect(match).toContainText("Withdrawal");
      await expect(match).toContainText(FIXTURE_PLAYER_ID);
      await expect(page.getByText(/1 transaction found by id/)).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `support-lookup-transaction-${size.name}`);
      await searchBox(page).press("Enter");
      await expect(page).toHaveURL(
        new RegExp(`/players/${FIXTURE_PLAYER_ID}\\?section=transactions&transaction_id=FX0401$`),
      );
      await expect(page.getByTestId("player-id")).toHaveText(FIXTURE_PLAYER_ID);
      // The table, filtered to that one transaction (its id in the filter; the fixture's Bank Withdrawal alone).
      await expect(page.getByRole("textbox", { name: "Transaction id" })).toHaveValue("FX0401");
      await expect(page.getByText("1–1 of 1")).toBeVisible({ timeout: 30_000 });
      await expect(page.getByRole("tabpanel", { name: "Transactions" })).toContainText("Bank Withdrawal");
      // The found transaction is marked in words and for assistive technology (aria-current), not by colour
      // alone: the table's row on a laptop, the card on a phone (the other layout is hidden at each size).
      const found = page
        .locator('[aria-current="true"][data-transaction-id="FX0401"]')
        .filter({ visible: true });
      await expect(found).toHaveCount(1);
      await expect(found).toHaveAttribute(
        "data-testid",
        size.width >= 768 ? "transaction-row" : "transaction-card",
      );
      await expect(found.getByTestId("found-transaction-marker")).toHaveText("Found by id");
      await expect(found).toContainText("Bank Withdrawal");
      await expect(page.locator('[aria-current="true"]').filter({ visible: true })).toHaveCount(1);
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `support-lookup-transaction-opened-${size.name}`);
    });
  });

  test.describe(`audit page filters at ${size.width}×${size.height}`, () => {
    test.use({ viewport: { width: size.width, height: size.height } });
    test.setTimeout(150_000);

    test("who read a player at a glance; user by display name; trail reads hidden unless asked", async ({
      page,
    }, testInfo) => {
      await signIn(page, "admin");
      await open(page, "/players/P000045");
      await open(page, "/audit?player=P000045");
      const readers = page.getByTestId("player-readers");
      await expect(async () => {
        await page.reload();
        // This session's reader (demo-admin); other specs' tokens may carry the same display name.
        const me = readers.getByTestId("player-reader").filter({ hasText: "Alex Admin" });
        await expect(me.filter({ hasText: "demo-admin" })).toBeVisible({
          timeout: 10_000,
        });
      }).toPass({ timeout: 90_000 });
      await expect(readers).toContainText(/P000045 was read by \d+ users?/);
      await expect(page.getByText("Admins' reads of this trail are hidden.")).toBeVisible();
      const entries = page.getByRole("region", { name: /Reads of player data/ }).getByTestId("audit-entry");
      await expect(entries.first()).toBeVisible();
      for (const text of await entries.allTextContents()) expect(text).not.toMatch(/audit trail/i);
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-readers-${size.name}`);

      await page.getByLabel("User (name or id)").fill("alex");
      await page.getByLabel(/Also show admins' reads/).check();
      await page.getByRole("button", { name: "Apply" }).click();
      await expect(page).toHaveURL(/user=alex/);
      await expect(page).toHaveURL(/audit_reads=true/);
      await expect(page.getByText("Admins' reads of this trail are hidden.")).toHaveCount(0);
      await expect(entries.filter({ hasText: /audit trail/i }).first()).toBeVisible({ timeout: 30_000 });
      for (const text of await entries.allTextContents()) expect(text).toContain("Alex Admin");
      expect(await seriousViolations(page)).toEqual([]);
      await capture(page, testInfo, `audit-user-by-name-${size.name}`);
    });
  });
}
