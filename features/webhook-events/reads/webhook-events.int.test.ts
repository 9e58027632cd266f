import pg from "pg";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { getAuditQueue } from "@/platform/audit/audit-recorder";
import { routeKitForFile } from "@/test/support/route-test-kit";

/*
 * GET /api/v1/webhook-events through its route handler, on both databases: the scope it needs (webhooks:read, in
 * no role), the last 30 days only, pages by position, the endpoint filter, each body as sent with its attempts,
 * no secret and no URL query in the answer, the body as the OpenAPI document promises, the read audited as
 * `webhook_events` with the players the bodies name.
 */

const kit = routeKitForFile();
const sql = new pg.Pool({ connectionString: inject("databaseUrl"), max: 1 });
const SECRET = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
const ENDPOINT = "we_00000000-0000-4000-8000-00000000e001";
const OTHER = "we_00000000-0000-4000-8000-00000000e002";

type Route = { GET: (request: Request, context: { params: Promise<object> }) => Promise<Response> };
let route: Route;

interface Page {
  events: {
    position: number;
    event_id: string;
    type: string;
    endpoint_id: string;
    endpoint_url: string;
    status: string;
    attempts: { attempt: number; status_code: number | null; error: string | null }[];
    body: string;
    next_attempt_at: string | null;
  }[];
  next: number;
  has_more: boolean;
}

const body = (n: number, playerId: string) =>
  `{"id":"00000000-0000-3000-8000-00000000000${n}","type":"transaction.large","created_at":"2026-12-01T00:00:00.000Z","data":{"id":"TWHE${n}","player_id":"${playerId}","amount":123456789012.12345678}}`;

let positions: number[] = [];

beforeAll(async () => {
  route = (await import("@/app/api/v1/webhook-events/route")) as unknown as Route;
  await sql.query(
    `INSERT INTO webhook_endpoints (id, url, secret, event_types, previous_secret) VALUES
      ($1, 'https://crm.example.com/hooks/in?token=topsecret', $3, '{transaction.large}', $3),
      ($2, 'https://other.example.com/hooks', $3, '{transaction.large}', NULL)`,
    [ENDPOINT, OTHER, SECRET],
  );
  // One 40 days old (out of the window), then four recent ones, the third another endpoint's.
  const rows: [string, string, string, string][] = [
    [ENDPOINT, body(1, "PWHE1"), "delivered", "now() - interval '40 days'"],
    [ENDPOINT, body(2, "PWHE2"), "delivered", "now() - interval '2 days'"],
    [ENDPOINT, body(3, "PWHE3"), "pending", "now() - interval '1 day'"],
    [OTHER, body(4, "PWHE4"), "failed", "now() - interval '1 hour'"],
    [ENDPOINT, body(5, "PWHE5"), "failed", "now()"],
  ];
  positions = [];
  for (const [endpoint, payload, status, created] of rows) {
    const { rows: inserted } = await sql.query<{ id: string }>(
      `INSERT INTO webhook_deliveries (event_id, endpoint_id, event_type, payload, status, created_at)
       VALUES ($1, $2, 'transaction.large', $3, $4, ${created}) RETURNING id::text`,
      [JSON.parse(payload).id, endpoint, payload, status],
    );
    positions.push(Number(inserted[0]?.id));
  }
  await sql.query(
    `INSERT INTO webhook_attempts (delivery_id, attempt, status_code, latency_ms, error, next_attempt_at) VALUES
      ($1, 1, 503, 40, 'HTTP 503', now()), ($1, 2, 200, 20, NULL, NULL)`,
    [positions[1]],
  );
});

afterAll(async () => {
  await sql.query("DELETE FROM webhook_deliveries WHERE endpoint_id IN ($1, $2)", [ENDPOINT, OTHER]);
  await sql.query("DELETE FROM webhook_endpoints WHERE id IN ($1, $2)", [ENDPOINT, OTHER]);
  await sql.end();
});

async function get(query: string, scope: string | null, session = "webhook-events") {
  const token = scope === null ? "demo-token" : await kit.token("receiver-crm", { scope });
  const response = await route.GET(
    new Request(`http://localhost/api/v1/webhook-events${query}`, {
      headers: { authorization: `Bearer ${token}`, "x-session-id": session },
    }),
    { params: Promise.resolve({}) },
  );
  const text = await response.text();
  const link = response.headers.get("link");
  return { status: response.status, text, link, json: text ? JSON.parse(text) : undefined };
}

describe("GET /api/v1/webhook-events", () => {
  it("needs webhooks:read: a token with the players' scopes only is refused (403)", async () => {
    const res = await get("", null);
    expect(res.status).toBe(403);
    expect(res.text).not.toContain("PWHE");
  });

  it("lists the last 30 days after a position: bodies as sent, attempts, no secret, no URL query", async () => {
    const after = (positions[0] ?? 1) - 1;
    const res = await get(`?after=${after}&endpoint_id=${ENDPOINT}`, "webhooks:read");
    expect(res.status, res.text).toBe(200);
    const page = res.json as Page;
    expect(kit.validate("/webhook-events", page)).toEqual([]);
    // The 40-day-old one is left out; the other endpoint's too.
    expect(page.events.map((e) => e.position)).toEqual([positions[1], positions[2], positions[4]]);
    expect(page).toMatchObject({ next: positions[4], has_more: false });
    const [delivered, pending] = page.events;
    expect(delivered).toMatchObject({
      event_id: "00000000-0000-3000-8000-000000000002",
      type: "transaction.large",
      endpoint_id: ENDPOINT,
      endpoint_url: "https://crm.example.com/hooks/in",
      status: "delivered",
      next_attempt_at: null,
      attempts: [
        { attempt: 1, status_code: 503, error: "HTTP 503" },
        { attempt: 2, status_code: 200, error: null },
      ],
    });
    // The body is the bytes sent: the amount keeps its 20 digits.
    expect(delivered?.body).toBe(body(2, "PWHE2"));
    expect(pending?.next_attempt_at).not.toBeNull();
    expect(res.text).not.toContain("whsec_");
    expect(res.text).not.toContain("topsecret");
  });

  it("pages by position: limit, has_more, next; an empty page keeps next", async () => {
    const after = (positions[0] ?? 1) - 1;
    const firstAnswer = await get(`?after=${after}&limit=2`, "webhooks:read");
    const first = firstAnswer.json as Page;
    const mine = (p: Page) => p.events.filter((e) => e.body.includes("PWHE")).map((e) => e.position);
    expect(mine(first)).toEqual([positions[1], positions[2]]);
    expect(first).toMatchObject({ next: positions[2], has_more: true });
    // The next page is named in Link, the limit kept.
    expect(firstAnswer.link).toBe(`</api/v1/webhook-events?limit=2&after=${first.next}>; rel="next"`);
    const second = (await get(`?after=${first.next}&limit=2`, "webhooks:read")).json as Page;
    expect(mine(second)).toEqual([positions[3], positions[4]]);
    const endAnswer = await get(`?after=${positions[4]}`, "webhooks:read");
    expect(endAnswer.json).toEqual({ events: [], next: positions[4], has_more: false });
    expect(endAnswer.link).toBeNull();
  });

  it("refuses a bad position or endpoint id with a 400 naming it", async () => {
    for (const [query, name] of [
      ["?after=-1", "after"],
      ["?endpoint_id=x", "endpoint_id"],
      ["?limit=501", "limit"],
    ] as const) {
      const res = await get(query, "webhooks:read");
      expect(res.status, query).toBe(400);
      expect((res.json as { errors: { name: string }[] }).errors.map((e) => e.name)).toEqual([name]);
    }
  });

  it("is audited as webhook_events with the players the bodies name", async () => {
    await get(`?after=${positions[2]}`, "webhooks:read", "webhook-events-audit");
    await getAuditQueue().flush();
    const { rows } = await sql.query<{ operation: string; result_player_ids: string[] }>(
      "SELECT operation::text, result_player_ids FROM audit_events WHERE session_id = 'webhook-events-audit'",
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]?.operation).toBe("webhook_events");
    expect(rows[0]?.result_player_ids).toEqual(expect.arrayContaining(["PWHE4", "PWHE5"]));
  });
});
