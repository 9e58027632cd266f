import { expect, test } from "@playwright/test";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";
import { FIXTURE_PLAYER_ID, FIXTURE_READ_ROUTES } from "../../test/support/test-fixtures.ts";
import { expectProblem } from "./helpers.ts";

/*
 * Over HTTP, through Next.js: its own copy of the query drops a `__proto__` key, so `?__proto__=1` reached the
 * routes as no parameter at all and was served (200, and the audit row without it). Now a 400 naming it on every
 * operation, like any unknown parameter (platform/http/protocol-guard.ts); `cursor` beyond bigint is a 400 too.
 */
const P = `/api/v1/players/${FIXTURE_PLAYER_ID}`;
const ROUTES = FIXTURE_READ_ROUTES;

test("`__proto__` in the query is a 400 naming it on every operation, in any spelling", async ({
  request,
}) => {
  const headers = authHeaders(await signToken("admin-e2e", { roles: ["admin"] }));
  for (const route of ROUTES) {
    expect((await request.get(route, { headers })).status(), route).toBe(200);
    for (const key of ["__proto__", "%5F%5Fproto%5F%5F", "__proto__[]"]) {
      const res = await request.get(`${route}${route.includes("?") ? "&" : "?"}${key}=1`, { headers });
      await expectProblem(res, 400, ["__proto__"]);
    }
  }
});

test("an audit cursor above bigint's maximum is a 400 naming cursor", async ({ request }) => {
  const headers = authHeaders(await signToken("admin-e2e", { roles: ["admin"] }));
  for (const route of [`${P}/audit`, "/api/v1/audit"]) {
    await expectProblem(await request.get(`${route}?cursor=9999999999999999999`, { headers }), 400, [
      "cursor",
    ]);
  }
});
