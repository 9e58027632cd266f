import { expect, test } from "@playwright/test";
import { WILDCARD_FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { expectDocumented, expectProblem, get } from "./helpers.ts";

const SEARCH = "/players";
type Result = {
  players: { id: string; name: string }[];
  total: number;
  limit: number;
  offset: number;
  has_more: boolean;
};

test.describe("GET /api/v1/players", () => {
  const search = async (request: Parameters<typeof get>[0], qs: string) =>
    (await expectDocumented(
      request,
      await get(request, `/api/v1/players${qs ? `?${qs}` : ""}`),
      SEARCH,
    )) as unknown as Result;

  test("lists players by id with the exact total and paging", async ({ request }) => {
    const first = await search(request, "");
    expect(first).toMatchObject({ limit: 20, offset: 0, has_more: true });
    expect(first.total).toBeGreaterThanOrEqual(200);
    expect(first.players.map((p) => p.id).slice(0, 3)).toEqual(["P000001", "P000002", "P000003"]);
    const last = await search(request, `limit=100&offset=${first.total - 1}`);
    expect(last.players).toHaveLength(1);
    expect(last.has_more).toBe(false);
    expect(await search(request, `offset=${first.total}`)).toMatchObject({
      players: [],
      total: first.total,
      has_more: false,
    });
  });

  test("searches id, name and email case-insensitively", async ({ request }) => {
    expect((await search(request, "q=p000042")).players.map((p) => p.id)).toEqual(["P000042"]);
    expect((await search(request, "q=FIXTURE%20PLAYER")).players.map((p) => p.id)).toEqual(["PTEST0001"]);
    expect((await search(request, "q=fixture.player%40EXAMPLE.com")).players.map((p) => p.id)).toEqual([
      "PTEST0001",
    ]);
  });

  test("wildcards are literal; unicode matches without case or accents", async ({ request }) => {
    for (const q of ["%25", "_", "Z_%C3%AB", "o%27hara_100%25"]) {
      const ids = (await search(request, `q=${q}`)).players.map((p) => p.id);
      expect(ids, q).toEqual(q === "Z_%C3%AB" ? [] : [WILDCARD_FIXTURE_PLAYER_ID]);
    }
    // "ZOË" is "zoe": the fixture's Zoë and every Zoé.
    const zoes = (await search(request, "q=ZO%C3%8B&limit=100")).players.map((p) => p.id);
    expect(zoes).toContain(WILDCARD_FIXTURE_PLAYER_ID);
    expect(zoes.length).toBeGreaterThan(1);
  });

  test("invalid parameters are 400s naming them", async ({ request }) => {
    await expectProblem(await get(request, "/api/v1/players?q="), 400, ["q"]);
    await expectProblem(await get(request, `/api/v1/players?q=${"a".repeat(101)}`), 400, ["q"]);
    await expectProblem(await get(request, "/api/v1/players?q=a%00"), 400, ["q"]);
    await expectProblem(await get(request, "/api/v1/players?q=a&q=b"), 400, ["q"]);
    await expectProblem(await get(request, "/api/v1/players?limit=101&offset=-1"), 400, ["limit", "offset"]);
    await expectProblem(await get(request, "/api/v1/players?name=x"), 400, ["name"]);
  });
});
