import { randomUUID } from "node:crypto";
import { type APIRequestContext, expect, test } from "@playwright/test";
import fc from "fast-check";
import { authHeaders, signToken } from "../../test/support/e2e-auth.ts";

/*
 * Trust features over HTTP on the production build: security headers, scopes and masking, the audit
 * trail, and hostile URLs that only ever get 200/400/404/405 with well-formed bodies.
 */

test.describe("security headers", () => {
  test("pages: a same-origin content security policy, no framing, no sniffing", async ({ request }) => {
    const res = await request.get("/");
    const h = res.headers();
    expect(h["content-security-policy"]).toContain("default-src 'self'");
    expect(h["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(h["content-security-policy"]).toContain("object-src 'none'");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["referrer-policy"]).toBe("no-referrer");
    expect(h["strict-transport-security"]).toBeUndefined(); // plain HTTP here
  });

  test("API: a policy that allows nothing, rate-limit headers, no shared caching of player data", async ({
    request,
  }) => {
    const res = await request.get("/api/v1/players/P000003", { headers: authHeaders("demo") });
    expect(res.status()).toBe(200);
    const h = res.headers();
    expect(h["content-security-policy"]).toContain("default-src 'none'");
    expect(h["x-content-type-options"]).toBe("nosniff");
    expect(h["x-frame-options"]).toBe("DENY");
    expect(h["cache-control"]).toBe("private, no-store");
    expect(h["ratelimit-policy"]).toMatch(/^"default";q=\d+;w=\d+$/);
    expect(h.ratelimit).toMatch(/^"default";r=\d+;t=\d+$/);
    expect(h["x-powered-by"]).toBeUndefined();
  });

  test("HSTS when the request came over HTTPS (through a TLS-terminating proxy)", async ({ request }) => {
    const res = await request.get("/api/health", { headers: { "X-Forwarded-Proto": "https" } });
    expect(res.headers()["strict-transport-security"]).toContain("max-age=");
  });
});

test.describe("least privilege", () => {
  test("a support agent's token gets masked contact data; a VIP manager's the full data", async ({
    request,
  }) => {
    const agent = await signToken("agent-e2e", { roles: ["support_agent"] });
    const masked = await (
      await request.get("/api/v1/players/P000007", { headers: authHeaders(agent) })
    ).json();
    expect(masked.email).toMatch(/^.\*\*\*@example\.com$/);
    expect(masked.phone).toMatch(/^\+\d+ ••• ••• \d\d$/);

    const vip = await signToken("vip-e2e", { scope: "players:read players:pii" });
    const full = await (await request.get("/api/v1/players/P000007", { headers: authHeaders(vip) })).json();
    expect(full.email).toMatch(/^[^*]+@example\.com$/);
    expect(full.email[0]).toBe(masked.email[0]);
  });

  test("the audit trail needs audit:read: 403 insufficient_scope for anyone else", async ({ request }) => {
    for (const token of ["any-demo-token", await signToken("vip", { roles: ["vip_manager"] })]) {
      const res = await request.get("/api/v1/players/P000007/audit", { headers: authHeaders(token) });
      expect(res.status()).toBe(403);
      expect(res.headers()["www-authenticate"]).toContain('error="insufficient_scope"');
      expect(res.headers()["content-type"]).toBe("application/problem+json");
    }
  });
});

interface TrailEvent {
  session_id: string;
  operation: string;
  filters: unknown;
}

/** The audit events of one API session in a player's trail, oldest first, as an admin reads them. */
async function sessionTrail(
  request: APIRequestContext,
  query: string,
  session: string,
): Promise<TrailEvent[]> {
  const admin = await signToken("admin-e2e", { roles: ["admin"] });
  const res = await request.get(`/api/v1/players/P000042/audit?${query}`, { headers: authHeaders(admin) });
  const body = (await res.json()) as { events: TrailEvent[] };
  return body.events.filter((e) => e.session_id === session).reverse();
}

test("every read is accounted for: an admin sees it in the player's audit trail", async ({ request }) => {
  const session = `e2e-${randomUUID()}`;
  const agent = await signToken("agent-audit", { roles: ["support_agent"] });
  const read = await request.get("/api/v1/players/P000042/transactions?event_type=deposit&limit=5", {
    headers: { ...authHeaders(agent, session), "X-Request-ID": `req-${session}` },
  });
  expect(read.status()).toBe(200);

  // Already there when the answer arrives (it waited for the row's commit), under the server's own request id.
  expect((await sessionTrail(request, "operation=transactions&limit=50", session))[0]).toMatchObject({
    subject: "agent-audit",
    operation: "transactions",
    player_id: "P000042",
    filters: { event_type: "deposit", limit: "5" },
    request_id: read.headers()["x-request-id"],
    client_request_id: `req-${session}`,
    client_address: "127.0.0.1",
    scopes: ["players:read"],
    text_replaced: false,
  });
});

test("the filter values and the monthly activity are audited as reads of the player's data", async ({
  request,
}) => {
  const session = `e2e-${randomUUID()}`;
  const agent = await signToken("agent-audit", { roles: ["support_agent"] });
  for (const path of ["transaction-facets", "monthly-activity?months=6"]) {
    const read = await request.get(`/api/v1/players/P000042/${path}`, {
      headers: authHeaders(agent, session),
    });
    expect(read.status()).toBe(200);
  }
  const missing = await request.get("/api/v1/players/NO-SUCH-PLAYER/transaction-facets", {
    headers: authHeaders(agent, session),
  });
  expect(missing.status()).toBe(404);

  await expect
    .poll(
      async () =>
        (await sessionTrail(request, "limit=100", session)).map((e) => ({
          operation: e.operation,
          filters: e.filters,
        })),
      { timeout: 30_000 },
    )
    .toEqual([
      { operation: "transaction_facets", filters: {} },
      { operation: "monthly_activity", filters: { months: "6" } },
    ]);
});

test("hostile URLs over HTTP: only 200, 400, 404 or 405, with well-formed bodies", async ({ request }) => {
  const segment = fc.oneof(
    fc.constantFrom("P000007", "PTEST0001", "%ZZ", "%E0%A4%A", "%C0%AF", "%", "%00", "%2F", "..%2F..", "😀"),
    fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 30 })
      .filter((s) => s !== "." && s !== "..")
      .map(encodeURIComponent),
  );
  const query = fc.oneof(
    fc.constantFrom(
      "",
      "?limit=%ZZ",
      "?limit=1e3",
      "?limit=-1",
      "?offset=99999999999999999999",
      "?event_type=bet&event_type=bet",
      "?evnt_type=bet",
      "?from_date=2026-02-30",
    ),
    fc
      .dictionary(fc.constantFrom("limit", "offset", "event_type", "q", "x"), fc.string({ maxLength: 50 }))
      .map((d) => {
        const p = new URLSearchParams(d).toString();
        return p ? `?${p}` : "";
      }),
  );
  const path = fc.oneof(
    segment.map((s) => `/api/v1/players/${s}`),
    segment.map((s) => `/api/v1/players/${s}/transactions`),
    fc.constant("/api/v1/players"),
    segment.map((s) => `/api/${s}`),
  );
  const method = fc.constantFrom("GET", "GET", "POST", "DELETE");
  await fc.assert(
    fc.asyncProperty(method, path, query, async (m, p, q) => {
      const res = await request.fetch(`${p}${q}`, {
        method: m,
        headers: authHeaders("demo"),
        maxRedirects: 0,
      });
      const status = res.status();
      expect([200, 400, 404, 405], `${m} ${p}${q} → ${status}`).toContain(status);
      const body = await res.json();
      if (status !== 200) {
        expect(res.headers()["content-type"]).toBe("application/problem+json");
        expect(body).toMatchObject({ status, type: expect.any(String), request_id: expect.any(String) });
      }
    }),
    { numRuns: 300 },
  );
});
