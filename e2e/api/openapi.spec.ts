import { expect, test } from "@playwright/test";

test.describe("API description", () => {
  test("the OpenAPI document describes every operation and its errors", async ({ request }) => {
    const res = await request.get("/api/v1/openapi.json");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^application\/json/);
    const doc = await res.json();
    expect(doc.openapi).toMatch(/^3\.1\./);
    // The spec's two operations and the search; added operations may follow, each described the same way.
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining(["/players", "/players/{playerId}", "/players/{playerId}/transactions"]),
    );
    for (const [path, item] of Object.entries(doc.paths) as [
      string,
      { get: { responses: Record<string, unknown> } },
    ][]) {
      for (const status of ["200", "400", "401", "405", "500", "503"]) {
        expect(item.get.responses[status], `${path} ${status}`).toBeTruthy();
      }
    }
    expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: "http", scheme: "bearer" });
    expect(doc.components.securitySchemes.oauth2.flows.clientCredentials).toMatchObject({
      tokenUrl: expect.stringMatching(/^https?:\/\//),
      scopes: {
        "players:read": expect.any(String),
        "players:pii": expect.any(String),
        "audit:read": expect.any(String),
      },
    });
    const params = doc.paths["/players/{playerId}/transactions"].get.parameters.map(
      (p: { name: string; in: string }) => `${p.in}:${p.name}`,
    );
    expect(params).toEqual(
      expect.arrayContaining([
        "path:playerId",
        "query:event_type",
        "query:event_name",
        "query:from_date",
        "query:to_date",
        "query:created_by",
        "query:limit",
        "query:offset",
        "header:X-Session-ID",
      ]),
    );
    expect(doc.components.schemas.EventType.enum).toEqual([
      "deposit",
      "withdrawal",
      "bonus",
      "bet",
      "win",
      "adjustment",
      "refund",
    ]);
  });

  test("the docs page is HTML pointing at the document", async ({ request }) => {
    const res = await request.get("/api/v1/docs");
    expect(res.status()).toBe(200);
    expect(res.headers()["content-type"]).toMatch(/^text\/html/);
    expect(await res.text()).toContain("/api/v1/openapi.json");
  });
});
