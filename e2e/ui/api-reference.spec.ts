import { expect, test } from "@playwright/test";
import { recordPageErrors } from "./helpers.ts";

/*
 * The API reference must work on a machine without internet and run no other origin's code next to the reader's
 * token: every request to another origin is aborted, and the page must still render the operations.
 */
test("the API reference renders from this origin alone, under script-src 'self', without console errors", async ({
  page,
  baseURL,
}) => {
  const origin = new URL(baseURL ?? "").origin;
  const foreign: string[] = [];
  const errors = recordPageErrors(page);
  await page.route(
    (url) => url.origin !== origin,
    (route) => {
      foreign.push(route.request().url());
      return route.abort();
    },
  );

  const response = await page.goto("/api/v1/docs");
  expect(response?.status()).toBe(200);

  const csp = response?.headers()["content-security-policy"] ?? "";
  const scriptSrc = csp
    .split(";")
    .map((d) => d.trim())
    .find((d) => d.startsWith("script-src"));
  expect(scriptSrc).toBe("script-src 'self'");
  // Only keywords and schemes: no host anywhere in the policy.
  expect(csp).not.toMatch(/https?:|\/\/|\*|\.(com|net|org|io)\b/);
  expect(csp).not.toContain("'unsafe-eval'");

  // The operations of the document, rendered by Scalar.
  for (const summary of [
    "Search players, or read up to 100 full profiles at once",
    "Page through a player's audit trail",
  ]) {
    await expect(page.getByText(summary, { exact: false }).first()).toBeVisible({ timeout: 60_000 });
  }
  await expect(page.locator("#app")).toContainText("/players/{playerId}/transactions");

  expect(foreign).toEqual([]);
  expect(errors).toEqual([]);
});

test("the Scalar bundle is served from this origin, pinned and cached for good", async ({ request }) => {
  const page = await (await request.get("/api/v1/docs")).text();
  const src = page.match(/<script src="([^"]+)" integrity="(sha384-[^"]+)"/);
  expect(src?.[1]).toMatch(/^\/api\/v1\/docs\/scalar\.js\?v=[0-9a-f]{16}$/);
  const bundle = await request.get(src?.[1] ?? "");
  expect(bundle.status()).toBe(200);
  expect(bundle.headers()["content-type"]).toBe("text/javascript; charset=utf-8");
  expect(bundle.headers()["cache-control"]).toBe("public, max-age=31536000, immutable");
  expect(page).not.toMatch(/<script>|<script(?![^>]*(src=|type="application\/json"))/);
});
