import { expect, test } from "@playwright/test";
import { get } from "./helpers.ts";

/* Issue 26: a problem's type is an absolute URI that resolves, without signing in, to a page describing it. */

test("a problem's type URI resolves to a page saying whether to retry and what to do", async ({
  request,
  baseURL,
}) => {
  const body = await (await get(request, "/api/v1/players/NOPE0000")).json();
  expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/(not-found|invalid-parameters)$/);
  // The server's public origin may differ from the address the test reaches it at: follow the path here.
  const page = await request.get(new URL(body.type).pathname, { maxRedirects: 0 });
  expect(page.status()).toBe(200);
  const html = await page.text();
  expect(html).toContain(body.title);
  expect(html).toMatch(/Retryable/);
  expect(html).toMatch(/No: the same request fails again\./);

  const limited = await request.get("/problems/rate-limited", { maxRedirects: 0 });
  expect(await limited.text()).toMatch(/Yes: the same request can succeed later\./);
  expect((await request.get("/problems/no-such-type", { maxRedirects: 0 })).status()).toBe(404);
  expect(baseURL).toBeTruthy();
});
