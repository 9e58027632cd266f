import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "@playwright/test";
import { open, signIn, WHALE } from "./helpers.ts";

/** axe-core's WCAG 2.x A/AA rules; serious and critical findings fail the test. */
async function seriousViolations(page: Page) {
  const results = await new AxeBuilder({ page })
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "best-practice"])
    .analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => ({
      id: v.id,
      impact: v.impact,
      help: v.help,
      nodes: v.nodes.map((n) => n.target.join(" ")),
    }));
}

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
]) {
  test.describe(`accessibility at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("sign-in page, also with an error shown", async ({ page }) => {
      await open(page, "/sign-in");
      await expect(page.getByRole("heading", { name: "Sign in to Player Accounts" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByLabel("Username").fill("admin");
      await page.getByLabel("Password").fill("wrong");
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.locator("#main").getByRole("alert")).toContainText("do not match");
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("lookup page with results and a highlighted option", async ({ page }) => {
      await signIn(page);
      await open(page, "/");
      expect(await seriousViolations(page)).toEqual([]);
      const box = page.getByRole("combobox", { name: "Player id, name or email" });
      await box.fill("silva");
      await expect(page.getByRole("option").first()).toBeVisible();
      await box.press("ArrowDown");
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("profile page, loaded, with a filter menu open", async ({ page }) => {
      await signIn(page);
      await open(page, `/players/${WHALE}`);
      await expect(page.getByTestId("player-name")).toBeVisible();
      await expect(
        page
          .locator('[data-testid="transaction-row"], [data-testid="transaction-card"]')
          .locator("visible=true")
          .first(),
      ).toBeVisible();
      await expect(
        page.getByTestId("activity-chart").locator(".recharts-bar-rectangle").first(),
      ).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
      await page.getByRole("button", { name: /^Event name:/ }).click();
      await expect(page.getByRole("checkbox").first()).toBeVisible();
      await page.getByText("Show the numbers as a table").click();
      expect(await seriousViolations(page)).toEqual([]);
    });

    test("not-found player page", async ({ page }) => {
      await signIn(page);
      await open(page, "/players/NO-SUCH-PLAYER");
      await expect(page.getByRole("heading", { name: "Player not found" })).toBeVisible();
      expect(await seriousViolations(page)).toEqual([]);
    });
  });
}
