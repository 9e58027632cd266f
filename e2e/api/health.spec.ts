import { expect, test } from "@playwright/test";

test("health reports the database as reachable", async ({ request }) => {
  const res = await request.get("/api/health");
  expect(res.status()).toBe(200);
  expect(await res.json()).toMatchObject({ status: "ok", database: { reachable: true } });
  expect(res.headers()["x-request-id"]).toBeTruthy();
});
