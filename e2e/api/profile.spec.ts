import { expect, test } from "@playwright/test";
import { EMPTY_FIXTURE_PLAYER_ID, FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { AUTH, expectDocumented, expectProblem, get } from "./helpers.ts";

const PROFILE = "/players/{playerId}";

test.describe("GET /api/v1/players/{playerId}", () => {
  test("a demo player's profile matches the documented schema, every field present", async ({ request }) => {
    for (const id of [
      "P000001",
      "P000007",
      "P000023",
      "P000041",
      "P000017",
      FIXTURE_PLAYER_ID,
      EMPTY_FIXTURE_PLAYER_ID,
    ]) {
      const body = await expectDocumented(request, await get(request, `/api/v1/players/${id}`), PROFILE);
      expect(body.id).toBe(id);
    }
  });

  test("unknown values are null, never missing", async ({ request }) => {
    const body = await expectDocumented(
      request,
      await get(request, `/api/v1/players/${EMPTY_FIXTURE_PLAYER_ID}`),
      PROFILE,
    );
    expect(body).toMatchObject({
      email: null,
      phone: null,
      language: null,
      ftd_date: null,
      last_login: null,
      vip_manager: null,
    });
    expect(body.kpi).toMatchObject({ last_deposit: null, last_withdrawal: null });
  });

  test("money leaves with its exact digits", async ({ request }) => {
    const res = await get(request, `/api/v1/players/${FIXTURE_PLAYER_ID}`);
    const text = await res.text();
    for (const part of [
      '"total_balance":123456789060.72345677',
      '"cash_balance":123456789010.72345677',
      '"bonus_balance":50,',
      '"pending_withdrawal":5}',
      '"ltd":0.6,',
      '"ltnc":-2.4}',
      '"last_deposit":{"amount":0.3,"date":"2025-03-01T10:00:00.000Z"}',
      '"last_withdrawal":{"amount":3,"date":"2025-03-12T09:00:00.000Z","status":"completed"}',
    ])
      expect(text).toContain(part);
    expect(text).not.toMatch(/\d[eE][+-]?\d/);
  });

  test("an unknown player is a 404 problem", async ({ request }) => {
    const body = await expectProblem(await get(request, "/api/v1/players/NO-SUCH-PLAYER"), 404);
    expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/not-found$/);
    expect(body.detail).toContain("NO-SUCH-PLAYER");
    await expectProblem(await get(request, "/api/v1/players/p000001"), 404); // ids are case-sensitive
  });

  test("the profile takes no query parameters: any is a 400 naming it", async ({ request }) => {
    await expectProblem(await get(request, "/api/v1/players/P000001?limit=1"), 400, ["limit"]);
    await expectProblem(await get(request, "/api/v1/players/P000001?x=1&y="), 400, ["x", "y"]);
  });

  test("invalid ids are 400 naming playerId", async ({ request }) => {
    for (const id of ["%00", "P%0A1", "x".repeat(65)]) {
      const body = await expectProblem(await get(request, `/api/v1/players/${id}`), 400, ["playerId"]);
      expect(body.errors?.[0]?.in).toBe("path");
    }
    // 64 characters is still a valid id, just an unknown one.
    await expectProblem(await get(request, `/api/v1/players/${"x".repeat(64)}`), 404);
  });

  test("ids with reserved characters are looked up verbatim", async ({ request }) => {
    const body = await expectProblem(await get(request, "/api/v1/players/a%2Fb%20c%3F"), 404);
    expect(body.detail).toContain("'a/b c?'");
  });

  test("HEAD answers like GET without a body", async ({ request }) => {
    const res = await request.head(`/api/v1/players/${FIXTURE_PLAYER_ID}`, { headers: AUTH });
    expect(res.status()).toBe(200);
    expect(res.headers()["cache-control"]).toBe("private, no-store");
    expect(res.headers()["x-request-id"]).toBeTruthy();
    expect((await res.body()).length).toBe(0);
    expect((await request.head("/api/v1/players/NO-SUCH", { headers: AUTH })).status()).toBe(404);
    expect((await request.head(`/api/v1/players/${FIXTURE_PLAYER_ID}`)).status()).toBe(401);
  });
});
