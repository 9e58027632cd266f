import { expect, test } from "@playwright/test";
import type { PlayerSearchData } from "../../features/players/client/queries.ts";
import { WIRE_DECIMALS } from "../../platform/client/wire-decimals.ts";
import { KYC_LABELS } from "../../platform/format/labels.ts";
import { DISPLAY_LOCALE } from "../../platform/format/locale.ts";
import { apiGet, formatCountInPage, open, signIn } from "./helpers.ts";

type Page = import("@playwright/test").Page;

const searchBox = (page: Page) => page.getByRole("combobox", { name: /^(Search by|Filter my players)/ });

test.describe("player lookup", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page);
    await open(page, "/");
  });

  test("results appear as you type, each with what tells namesakes apart", async ({ page }) => {
    await expect(searchBox(page)).toBeFocused();
    await searchBox(page).pressSequentially("silva", { delay: 40 });
    const api = await apiGet<PlayerSearchData>(
      page.request,
      "/players?q=silva&limit=20",
      WIRE_DECIMALS.playerSearch,
    );
    expect(api.players.length).toBeGreaterThan(1);

    const options = page.getByRole("option");
    await expect(options).toHaveCount(api.players.length);
    for (const [i, player] of api.players.entries()) {
      const option = options.nth(i);
      await expect(option).toContainText(player.name);
      await expect(option).toContainText(player.id);
      await expect(option).toContainText(player.email ?? "No email");
      if (player.language) await expect(option).toContainText(player.language);
      await expect(option).toContainText("Registered");
      await expect(option).toContainText(player.last_activity ? "Last active" : "Last active never");
      if (player.phone) await expect(option).toContainText(player.phone);
      await expect(option).toContainText(
        await moneyInPage(page, String(player.total_balance), player.currency),
      );
      // Status only when it matters: never a "Not blocked" pill.
      await expect(option).not.toContainText("Not blocked");
      if (player.blocked) await expect(option).toContainText("Blocked");
      if (player.kyc_status !== "approved")
        await expect(option).toContainText(`KYC ${KYC_LABELS[player.kyc_status].label}`);
      else await expect(option).not.toContainText("KYC");
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

  test("a part of an e-mail address finds nobody for a role that sees them masked, and the page says why", async ({
    page,
  }) => {
    // The support agent (signed in by beforeEach) sees contact data masked: a part of an address finds nobody
    // by design, and the page says to type it whole rather than that no player has it.
    await expect(searchBox(page)).toHaveAccessibleName(
      "Search by name, player ID, or an exact e-mail or phone number",
    );
    await searchBox(page).fill("zoe.cote7@");
    await expect(page.getByTestId("contact-exact-notice")).toContainText("matched only in full");
    await expect(
      page.getByText("Type the whole e-mail address: a part of one matches nobody."),
    ).toBeVisible();
    await expect(page.getByText(/No player has an id/)).toHaveCount(0);
    await expect(page.getByRole("option")).toHaveCount(0);

    await signIn(page, "vip_manager");
    await open(page, "/");
    await expect(searchBox(page)).toHaveAccessibleName(
      "Search by name, player ID, e-mail, phone number or transaction ID",
    );
    await searchBox(page).fill("zoe.cote7@");
    await expect(page.getByTestId("contact-exact-notice")).toHaveCount(0);
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
      page.getByText(
        "No player has an id or name containing “zz-nobody-zz”, and no transaction has that id.",
      ),
    ).toBeVisible();
    await expect(page.getByRole("option")).toHaveCount(0);
  });
});

async function moneyInPage(page: Page, amount: string, currency: string): Promise<string> {
  return page.evaluate(
    ([a, c, locale]) => {
      const iso = Intl.supportedValuesOf("currency").includes(c);
      const f = iso
        ? new Intl.NumberFormat(locale, { style: "currency", currency: c, maximumFractionDigits: 8 })
        : new Intl.NumberFormat(locale, { minimumFractionDigits: 2, maximumFractionDigits: 8 });
      const text = f.format(a as unknown as number);
      return iso ? text : `${text} ${c}`;
    },
    [amount, currency, DISPLAY_LOCALE] as const,
  );
}

test.describe("my players (VIP manager)", () => {
  test.beforeEach(async ({ page }) => {
    await signIn(page, "vip_manager");
  });

  test("lists exactly the players assigned to the signed-in manager, in the URL", async ({ page }) => {
    await open(page, "/");
    await page.getByRole("radio", { name: "My players" }).check();
    await expect(page).toHaveURL(/\?view=mine$/);
    const api = await apiGet<PlayerSearchData>(
      page.request,
      "/players?assigned=me&limit=20",
      WIRE_DECIMALS.playerSearch,
    );
    expect(api.total).toBeGreaterThan(0);
    expect(api.players.every((p) => p.vip_manager === "Sarah Mitchell")).toBe(true);
    const options = page.getByRole("listbox", { name: "My players" }).getByRole("option");
    await expect(options).toHaveCount(api.players.length);
    for (const [i, player] of api.players.entries()) await expect(options.nth(i)).toContainText(player.id);

    // Typing narrows the manager's own list; another manager's player is not in it.
    const first = api.players[0];
    await searchBox(page).fill(first?.id ?? "");
    await expect(options).toHaveCount(1);
    const other = await apiGet<PlayerSearchData>(
      page.request,
      "/players?limit=100",
      WIRE_DECIMALS.playerSearch,
    );
    const notMine = other.players.find((p) => p.vip_manager !== "Sarah Mitchell");
    await searchBox(page).fill(notMine?.id ?? "");
    await expect(
      page.getByText(
        `No player of yours has an id, name or e-mail address containing “${notMine?.id}”, and no transaction has that id.`,
      ),
    ).toBeVisible();

    // The view is shareable: a fresh load of the URL shows the same list.
    await open(page, "/?view=mine");
    await expect(page.getByRole("radio", { name: "My players" })).toBeChecked();
    await expect(page.getByRole("listbox", { name: "My players" }).getByRole("option")).toHaveCount(
      api.players.length,
    );
  });

  test("a support agent has no My players switch", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, "/?view=mine");
    await expect(page.getByRole("group", { name: "Which players to list" })).toHaveCount(0);
  });
});

test.describe("not-found page", () => {
  test("an unknown page keeps the app header with the user and sign-out", async ({ page }) => {
    await signIn(page, "vip_manager");
    const response = await page.goto("/no-such-page/at-all");
    expect(response?.status()).toBe(404);
    await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText("Sarah Mitchell");
    await expect(page.getByRole("button", { name: /sign out/i })).toBeVisible();
    await page.getByRole("link", { name: "Go to player lookup" }).click();
    await expect(searchBox(page)).toBeVisible();
  });

  test("an unknown player id keeps the app header", async ({ page }) => {
    await signIn(page, "vip_manager");
    await open(page, "/players/P999999");
    await expect(page.getByRole("heading", { name: /not found/i })).toBeVisible();
    await expect(page.getByRole("banner")).toContainText("Sarah Mitchell");
    await expect(page.getByRole("button", { name: /sign out/i })).toBeVisible();
  });
});
