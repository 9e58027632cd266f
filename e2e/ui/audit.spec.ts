import { expect, test } from "@playwright/test";
import { open, signIn } from "./helpers.ts";

test.describe("audit trail on the profile page", () => {
  test.setTimeout(150_000);
  test("an admin sees who read the player, their own earlier read included", async ({ page }) => {
    await signIn(page, "admin");
    await open(page, "/players/P000042");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toBeVisible();
    // The first visit's reads are written in the background; a later visit lists them.
    await expect(async () => {
      await page.reload();
      const trail = page.getByRole("table", { name: /Reads of player P000042's data/ });
      await expect(trail.getByRole("row").filter({ hasText: "Viewed profile" }).first()).toBeVisible({
        timeout: 15_000,
      });
    }).toPass({ timeout: 90_000 });
  });

  test("other roles do not see it", async ({ page }) => {
    await signIn(page, "support_agent");
    await open(page, "/players/P000042");
    await expect(page.getByTestId("player-id")).toHaveText("P000042");
    await expect(page.getByRole("heading", { name: "Audit trail" })).toHaveCount(0);
  });
});
