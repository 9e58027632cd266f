import { expect, test } from "@playwright/test";
import type { PlayerSearchData } from "../../lib/client/wire.ts";
import { KYC_LABELS } from "../../lib/format/labels.ts";
import { apiGet, formatCountInPage, open, signIn } from "./helpers.ts";

test.describe("player lookup", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await open(page, "/");
  });

  const searchBox = (page: import("@playwright/test").Page) =>
    page.getByRole("combobox", { name: "Player id, name or email" });

  test("results appear as you type, each with the player's key facts", async ({ page }) => {
    await expect(searchBox(page)).toBeFocused();
    await searchBox(page).pressSequentially("silva", { delay: 40 });
    const api = await apiGet<PlayerSearchData>(page.request, "/players?q=silva&limit=20");
    expect(api.players.length).toBeGreaterThan(1);

    const options = page.getByRole("option");
    await expect(options).toHaveCount(api.players.length);
    for (const [i, player] of api.players.entries()) {
      const option = options.nth(i);
      await expect(option).toContainText(player.name);
      await expect(option).toContainText(player.id);
      await expect(option).toContainText(player.email ?? "No email");
      await expect(option).toContainText(`KYC ${KYC_LABELS[player.kyc_status].label}`);
      await expect(option).toContainText(player.blocked ? "Blocked" : "Not blocked");
      await expect(option).toContainText(player.currency);
    }
    const count = await formatCountInPage(page, api.total);
    await expect(page.getByText(`${count} players found.`)).toBeVisible();
    await expect(page).toHaveURL(/\?q=silva$/);
  });

  test("arrow keys move through the results and Enter opens the highlighted one", async ({ page }) => {
    await searchBox(page).fill("silva");
    const options = page.getByRole("option");
    await expect(options.nth(1)).toBeVisible();
    const second = (await options.nth(1).textContent()) ?? "";
    const secondId = /P\d{6}/.exec(second)?.[0];

    await searchBox(page).press("ArrowDown");
    await searchBox(page).press("ArrowDown");
    await expect(options.nth(1)).toHaveAttribute("aria-selected", "true");
    await expect(searchBox(page)).toHaveAttribute(
      "aria-activedescendant",
      (await options.nth(1).getAttribute("id")) ?? "",
    );
    await searchBox(page).press("ArrowUp");
    await expect(options.nth(0)).toHaveAttribute("aria-selected", "true");
    await searchBox(page).press("ArrowDown");
    await searchBox(page).press("Enter");
    await expect(page).toHaveURL(new RegExp(`/players/${secondId}$`));
    await expect(page.getByTestId("player-id")).toHaveText(secondId ?? "");

    // Back returns to the same search.
    await page.goBack();
    await expect(searchBox(page)).toHaveValue("silva");
    await expect(options.nth(1)).toBeVisible();
  });

  test("a click opens the profile", async ({ page }) => {
    await searchBox(page).fill("P000007");
    const option = page.getByRole("option", { name: /P000007/ });
    await option.click();
    await expect(page).toHaveURL(/\/players\/P000007$/);
  });

  test("e-mail addresses are searchable only for roles that may see them", async ({ page }) => {
    // The support agent (signed in by beforeEach) lacks players:pii: an e-mail finds nobody.
    await searchBox(page).fill("helena.silva7@");
    await expect(page.getByText("No players match “helena.silva7@”.")).toBeVisible();

    await signIn(page, "vip_manager");
    await open(page, "/");
    await searchBox(page).fill("helena.silva7@");
    const option = page.getByRole("option", { name: /P000007/ });
    await option.click();
    await expect(page).toHaveURL(/\/players\/P000007$/);
  });

  test("a full player id and Enter opens the profile directly, whatever the case", async ({ page }) => {
    await searchBox(page).fill("p000042");
    await searchBox(page).press("Enter");
    await expect(page).toHaveURL(/\/players\/P000042$/);
    await expect(page.getByTestId("player-id")).toHaveText("P000042");
  });

  test("an unknown id opens the not-found page", async ({ page }) => {
    await searchBox(page).fill("P999999");
    await searchBox(page).press("Enter");
    await expect(page).toHaveURL(/\/players\/P999999$/);
    await expect(page.getByRole("heading", { name: "Player not found" })).toBeVisible();
    await page.getByRole("link", { name: "Search for a player" }).click();
    await expect(searchBox(page)).toBeVisible();
  });

  test("no match says so", async ({ page }) => {
    await searchBox(page).fill("zz-nobody-zz");
    await expect(
      page.getByText("No player has an id, name or email containing “zz-nobody-zz”."),
    ).toBeVisible();
    await expect(page.getByRole("option")).toHaveCount(0);
  });
});
