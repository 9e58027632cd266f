import fc from "fast-check";
import { beforeEach, describe, expect, it } from "vitest";
import { transactionListQuerySchema } from "@/features/transactions/schema/transaction";
import { encodeTransactionCursor } from "@/features/transactions/schema/transaction-cursor";
import { problemSchema } from "@/platform/schemas/common";
import { type KitResponse, kitToken, routeKitForFile } from "@/test/support/route-test-kit";

/*
 * Property-based tests over the query and path parsing of every API operation: generated inputs
 * (unicode, control characters, huge and negative numbers, malformed percent-encoding, repeated, unknown
 * and bracketed parameters, other methods) only ever yield 200, 400, 404 or 405, and each body is
 * well-formed: a 200 matches the OpenAPI document, an error is RFC 9457 problem+json naming what was wrong.
 * PROPERTY_RUNS scales the number of generated requests (default 1; CI or a soak may raise it).
 */
const SCALE = Number(process.env.PROPERTY_RUNS ?? 1);
const runs = (n: number) => Math.max(1, Math.round(n * SCALE));

const kit = routeKitForFile();
const admin = await kitToken("admin1", { roles: ["admin"] });

const ALLOWED = new Set([200, 400, 404, 405]);
/** Statuses seen per test: the generators must reach every outcome, or the property proves little. */
let seen = new Map<number, number>();

function expectWellFormed(res: KitResponse, operationPath: string): void {
  seen.set(res.status, (seen.get(res.status) ?? 0) + 1);
  expect(ALLOWED.has(res.status), `status ${res.status}: ${res.text.slice(0, 300)}`).toBe(true);
  if (res.status === 200 && operationPath.endsWith("/export")) {
    expect(res.contentType).toMatch(/^(text\/csv|application\/x-ndjson)/);
    if (res.contentType.startsWith("text/csv")) expect(res.text).toMatch(/^player_id,id,date,/);
    return;
  }
  if (res.status === 200) {
    expect(res.contentType).toContain("application/json");
    expect(kit.validate(operationPath, res.json)).toEqual([]);
    return;
  }
  expect(res.contentType).toBe("application/problem+json");
  const problem = problemSchema.parse(res.json);
  expect(problem.status).toBe(res.status);
  expect(problem.request_id).toBeTruthy();
  if (res.status === 400) expect(problem.errors?.length).toBeGreaterThan(0);
  if (res.status === 405) expect(res.headers.get("allow")).toBeTruthy();
  // Never an internal detail.
  expect(res.text).not.toMatch(/PrismaClient|(\\n|\n)\s+at |node_modules/); // no stack traces or internals
}

// --- arbitraries -------------------------------------------------------------------------------------

const anyText = fc.oneof(
  fc.string({ unit: "grapheme", maxLength: 40 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.string({ maxLength: 5_000 }),
  fc.constantFrom(
    "",
    " ",
    "\u0000",
    "\n",
    "%",
    "%ZZ",
    "%C0%AF",
    "../..",
    "'; DROP TABLE players;--",
    "😀",
    "\uFEFF",
  ),
);

const numberLike = fc.oneof(
  fc.integer({ min: -10, max: 200 }).map(String),
  fc.bigInt({ min: -(10n ** 30n), max: 10n ** 30n }).map(String),
  fc.constantFrom("1e3", "0x10", "+5", "5.0", " 5", "NaN", "Infinity", "-0", "00020", "9007199254740993"),
);

const dateLike = fc.oneof(
  fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }).map((d) => d.toISOString()),
  fc.date({ noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
  fc.constantFrom(
    "2026-02-30",
    "2026-13-01",
    "2026-01-01T25:00:00Z",
    "2026-01-01T00:00:00+25:00",
    "yesterday",
  ),
  anyText,
);

const valueFor: Record<string, fc.Arbitrary<string>> = {
  limit: numberLike,
  offset: numberLike,
  event_type: fc.oneof(
    fc.constantFrom("deposit", "withdrawal", "bonus", "bet", "win", "adjustment", "refund", "bet,win", "BET"),
    anyText,
  ),
  event_name: fc.oneof(fc.constantFrom("Casino Bet", "Card Deposit", "Casino Bet,Casino Win"), anyText),
  from_date: dateLike,
  to_date: dateLike,
  created_by: fc.oneof(fc.constantFrom("System", "VIP Manager", "Admin"), anyText),
  q: fc.oneof(fc.constantFrom("P0000", "müller", "%", "_", "\\"), anyText),
  operation: fc.oneof(fc.constantFrom("profile", "search", "audit_trail", "export"), anyText),
  cursor: fc.oneof(
    numberLike,
    anyText,
    fc
      .tuple(fc.date({ min: new Date(-1e14), max: new Date(1e14), noInvalidDate: true }), anyText)
      .map(([date, id]) => encodeTransactionCursor({ date, id })),
  ),
  format: fc.oneof(fc.constantFrom("csv", "ndjson", "CSV", "xlsx"), anyText),
};

/** A query string of known parameters (also repeated or bracketed) and unknown ones, in any order. */
const queryFor = (known: string[]) =>
  fc
    .array(
      fc.oneof(
        {
          weight: 5,
          arbitrary: fc.constantFrom(...known).chain((k) => fc.tuple(fc.constant(k), valueFor[k] ?? anyText)),
        },
        {
          weight: 1,
          arbitrary: fc
            .constantFrom(...known)
            .chain((k) => fc.tuple(fc.constant(`${k}[]`), valueFor[k] ?? anyText)),
        },
        { weight: 1, arbitrary: fc.tuple(anyText, anyText) },
      ),
      { maxLength: 6 },
    )
    .map((pairs) => {
      const params = new URLSearchParams();
      for (const [k, v] of pairs) params.append(k, v);
      const text = params.toString();
      return text ? `?${text}` : "";
    });

const rawQuery = fc.constantFrom(
  "?%",
  "?limit=%ZZ",
  "?=1",
  "?&&&",
  "?limit",
  "?event_type=%E0%A4%A",
  "?a=1&a=2&a=3",
);

const playerId = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom("P000007", "PTEST0001", "PTEST0002", "P000003", "P000023") },
  {
    weight: 4,
    arbitrary: anyText.filter((s) => s !== "" && s !== "." && s !== "..").map(encodeURIComponent),
  },
  { weight: 1, arbitrary: fc.constantFrom("%ZZ", "%E0%A4%A", "%C0%AF", "%", "P0%0", "%00") },
);

const method = fc.constantFrom("GET", "GET", "GET", "POST", "PUT", "PATCH", "DELETE");

// --- properties ------------------------------------------------------------------------------------

describe("hostile input never breaks the API", () => {
  beforeEach(() => {
    seen = new Map();
  });
  const expectCoverage = (...statuses: number[]) => {
    for (const status of statuses) expect(seen.get(status) ?? 0, `no ${status} generated`).toBeGreaterThan(0);
  };

  it("profile: any player id and query", async () => {
    await fc.assert(
      fc.asyncProperty(method, playerId, fc.oneof(queryFor(["limit"]), rawQuery), async (m, id, q) => {
        expectWellFormed(await kit.call(m, `/api/v1/players/${id}${q}`), "/players/{playerId}");
      }),
      { numRuns: runs(500) },
    );
    expectCoverage(200, 400, 404, 405);
  });

  it("transactions: any player id and any mix of filters", async () => {
    const known = Object.keys(transactionListQuerySchema.shape);
    await fc.assert(
      fc.asyncProperty(method, playerId, fc.oneof(queryFor(known), rawQuery), async (m, id, q) => {
        expectWellFormed(
          await kit.call(m, `/api/v1/players/${id}/transactions${q}`),
          "/players/{playerId}/transactions",
        );
      }),
      { numRuns: runs(1_200) },
    );
    expectCoverage(200, 400, 404, 405);
  });

  it("export: any player id and any mix of filters and formats", async () => {
    const known = ["event_type", "event_name", "from_date", "to_date", "created_by", "format", "limit"];
    await fc.assert(
      fc.asyncProperty(method, playerId, fc.oneof(queryFor(known), rawQuery), async (m, id, q) => {
        expectWellFormed(
          await kit.call(m, `/api/v1/players/${id}/transactions/export${q}`),
          "/players/{playerId}/transactions/export",
        );
      }),
      { numRuns: runs(400) },
    );
    expectCoverage(200, 400, 404, 405);
  });

  it("search: any query", async () => {
    await fc.assert(
      fc.asyncProperty(method, fc.oneof(queryFor(["q", "limit", "offset"]), rawQuery), async (m, q) => {
        expectWellFormed(await kit.call(m, `/api/v1/players${q}`), "/players");
      }),
      { numRuns: runs(600) },
    );
    expectCoverage(200, 400, 405);
  });

  it("audit trail: any player id and query", async () => {
    await fc.assert(
      fc.asyncProperty(
        method,
        playerId,
        fc.oneof(queryFor(["operation", "cursor", "limit"]), rawQuery),
        async (m, id, q) => {
          const res = await kit.call(m, `/api/v1/players/${id}/audit${q}`, { token: admin });
          expectWellFormed(res, "/players/{playerId}/audit");
        },
      ),
      { numRuns: runs(400) },
    );
    expectCoverage(200, 400, 404, 405);
  });

  it("any other path under /api: 404 or 400, as problem+json", async () => {
    const segment = fc.oneof(
      anyText.filter((s) => s !== "" && s !== "." && s !== "..").map(encodeURIComponent),
      fc.constantFrom("%ZZ", "v1", "v2", "health"),
    );
    await fc.assert(
      fc.asyncProperty(fc.array(segment, { minLength: 1, maxLength: 6 }), async (segments) => {
        const res = await kit.call("GET", `/api/${segments.join("/")}`);
        expectWellFormed(res, "/players/{playerId}");
      }),
      { numRuns: runs(300) },
    );
    expectCoverage(400, 404);
  });
});
