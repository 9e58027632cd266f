import { describe, expect, it, vi } from "vitest";
import { playerNotFound } from "@/platform/http/errors";
import {
  ApiError,
  invalidParameters,
  methodNotAllowed,
  notFound,
  serviceUnavailable,
  unauthorized,
} from "@/platform/problems/problem";
import { problemSchema } from "@/platform/schemas/common";
import { stubEnvForEachTest } from "@/test/support/env";
import { ExactNumber } from "../schemas/exact-number.ts";
import { methodNotAllowedHandler, readOnlyMethods, withApi } from "./api-handler.ts";
import { requestFilters } from "./audited-read.ts";
import { clientRequestIdFor, newRequestId } from "./request-id.ts";
import { jsonResponse, problemResponse } from "./responses.ts";
import { toProblem } from "./to-problem.ts";

stubEnvForEachTest({ LOG_LEVEL: "silent", AUTH_MODE: "demo" });

const request = (path = "/api/v1/x", init: RequestInit = {}) => new Request(`http://localhost${path}`, init);
const authed = (path = "/api/v1/x", extra: Record<string, string> = {}) =>
  request(path, { headers: { Authorization: "Bearer t", "X-Session-ID": "s", ...extra } });
const ctx = <P>(params: P) => ({ params: Promise.resolve(params) });

async function expectProblem(res: Response, status: number) {
  expect(res.status).toBe(status);
  expect(res.headers.get("content-type")).toBe("application/problem+json");
  expect(res.headers.get("cache-control")).toBe("no-store");
  const body = await res.json();
  expect(problemSchema.parse(body)).toEqual(body);
  expect(body.status).toBe(status);
  expect(body.request_id).toBe(res.headers.get("x-request-id"));
  return body;
}

describe("problem constructors", () => {
  it("invalidParameters: one error is described in the detail, several are listed", () => {
    const one = invalidParameters([{ name: "limit", in: "query", detail: "must be at most 100" }]);
    expect(one.status).toBe(400);
    expect(one.detail).toBe("Parameter 'limit' must be at most 100.");
    const header = invalidParameters([{ name: "X-Session-ID", in: "header", detail: "is required" }]);
    expect(header.detail).toBe("Header 'X-Session-ID' is required.");
    const many = invalidParameters([
      { name: "limit", in: "query", detail: "a" },
      { name: "offset", in: "query", detail: "b" },
      { name: "limit", in: "query", detail: "c" },
    ]);
    expect(many.detail).toBe("Invalid parameters: 'limit', 'offset'. See errors for each.");
    expect(many.errors).toHaveLength(3);
  });

  it("unauthorized: a Bearer challenge, with invalid_token and a quote-safe description when asked", () => {
    expect(unauthorized({ detail: "missing" }).headers).toEqual({
      "WWW-Authenticate": 'Bearer realm="player-account-read"',
    });
    expect(unauthorized({ detail: 'bad "token"', invalidToken: true }).headers["WWW-Authenticate"]).toBe(
      `Bearer realm="player-account-read", error="invalid_token", error_description="bad 'token'"`,
    );
  });

  it("methodNotAllowed lists the allowed methods; serviceUnavailable asks to retry", () => {
    const e = methodNotAllowed("POST", ["GET", "HEAD"]);
    expect([e.status, e.headers.Allow, e.detail]).toEqual([
      405,
      "GET, HEAD",
      "POST is not supported here; use GET or HEAD.",
    ]);
    expect(serviceUnavailable().headers["Retry-After"]).toBe("5");
    expect(notFound("x").status).toBe(404);
  });
});

describe("problemResponse", () => {
  it("writes an RFC 9457 body with the request id, and the error's own headers", async () => {
    const res = problemResponse(
      unauthorized({
        detail: "nope",
        errors: [{ name: "Authorization", in: "header", detail: "is required" }],
      }),
      "rid-1",
      "/api/v1/players/P1",
    );
    const body = await expectProblem(res, 401);
    expect(body).toEqual({
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/unauthorized$/),
      title: "Unauthorized",
      status: 401,
      detail: "nope",
      instance: "/api/v1/players/P1",
      request_id: "rid-1",
      errors: [{ name: "Authorization", in: "header", detail: "is required" }],
    });
    expect(res.headers.get("x-request-id")).toBe("rid-1");
    expect(res.headers.get("www-authenticate")).toContain("Bearer");
  });

  it("leaves out instance and errors when there are none", async () => {
    const body = await expectProblem(problemResponse(notFound("gone"), "rid-2"), 404);
    expect(Object.keys(body).sort()).toEqual(["detail", "request_id", "status", "title", "type"]);
  });
});

describe("clientRequestIdFor and newRequestId", () => {
  it("keeps a sane client id aside, never as the request's id", () => {
    for (const id of ["abc", "req-1.2:3_4", "x".repeat(128), "550e8400-e29b-41d4-a716-446655440000"]) {
      expect(clientRequestIdFor(request("/", { headers: { "X-Request-ID": id } }))).toBe(id);
    }
  });

  it("drops a missing or unsafe client id", () => {
    for (const id of [null, "", "x".repeat(129), "has space", "semi;colon", "<script>", 'quote"', "ünï"]) {
      const headers = new Headers();
      if (id !== null) headers.set("X-Request-ID", id);
      expect(clientRequestIdFor(request("/", { headers })), String(id)).toBeNull();
    }
  });

  it("makes a fresh UUID per request", () => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
    expect(newRequestId()).toMatch(uuid);
    expect(newRequestId()).not.toBe(newRequestId());
  });
});

describe("jsonResponse", () => {
  it("is JSON with no-store and exact numbers", async () => {
    const res = jsonResponse({ amount: new ExactNumber("0.30000000") });
    expect(res.headers.get("content-type")).toBe("application/json; charset=utf-8");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(await res.text()).toBe('{"amount":0.3}');
  });
});

describe("withApi", () => {
  it("runs the handler with parsed params and a principal, and tags the response with the request id", async () => {
    const handler = vi.fn(async ({ params, principal }) =>
      jsonResponse({ params, subject: principal.subject }),
    );
    const route = withApi<{ id: string }>(handler);
    const res = await route(authed("/api/v1/x", { "X-Request-ID": "given-id" }), ctx({ id: "P1" }));
    expect(res.status).toBe(200);
    // The server's own id, never the client's (which the audit row keeps beside it).
    expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    expect(await res.json()).toEqual({ params: { id: "P1" }, subject: "demo" });
  });

  it("authenticates before calling the handler", async () => {
    const handler = vi.fn(async () => jsonResponse({}));
    const res = await withApi(handler)(request("/api/v1/x"), ctx({}));
    const body = await expectProblem(res, 401);
    expect(body.errors[0].name).toBe("Authorization");
    expect(res.headers.get("www-authenticate")).toMatch(/^Bearer /);
    expect(handler).not.toHaveBeenCalled();
  });

  it("skips authentication when asked (health, documents)", async () => {
    const res = await withApi(async () => jsonResponse({ ok: true }), { auth: false })(request(), ctx({}));
    expect(res.status).toBe(200);
    expect(res.headers.get("x-request-id")).toBeTruthy();
  });

  it("maps a thrown ApiError to its problem", async () => {
    const res = await withApi(async () => {
      throw notFound("No player with id 'X'.");
    })(authed("/api/v1/players/X"), ctx({}));
    const body = await expectProblem(res, 404);
    expect(body.instance).toBe("/api/v1/players/X");
  });

  it("answers a data function's not-found AppError with a 404 naming the player", async () => {
    const res = await withApi(async () => {
      throw playerNotFound("P404");
    })(authed("/api/v1/players/P404"), ctx({}));
    const body = await expectProblem(res, 404);
    expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/not-found$/);
    expect(body.detail).toBe("No player with id 'P404'.");
  });

  it("turns an unexpected error into a 500 that leaks no message, stack or SQL", async () => {
    const res = await withApi(async () => {
      throw new Error(
        'relation "players" does not exist: SELECT * FROM players at Object.<anonymous> (/srv/app.js:1:1)',
      );
    })(authed(), ctx({}));
    const body = await expectProblem(res, 500);
    const text = JSON.stringify(body);
    expect(text).not.toMatch(/players|SELECT|relation|app\.js|at Object/);
    expect(body.detail).toContain(body.request_id);
  });

  it("turns database connection failures into a 503 with Retry-After", async () => {
    const failures: unknown[] = [
      Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:5432"), { code: "ECONNREFUSED" }),
      new Error("wrapper", { cause: Object.assign(new Error("x"), { code: "ETIMEDOUT" }) }),
      Object.assign(new Error("Can't reach database server"), { code: "P1001" }),
      Object.assign(new Error("terminating connection due to administrator command"), { code: "57P01" }),
      new Error("Connection terminated unexpectedly"),
    ];
    for (const failure of failures) {
      const res = await withApi(async () => {
        throw failure;
      })(authed(), ctx({}));
      await expectProblem(res, 503);
      expect(res.headers.get("retry-after")).toBe("5");
    }
  });

  it("toProblem survives cyclic causes and non-Error throws", () => {
    const a: { cause?: unknown; code?: string } = {};
    a.cause = a;
    expect(toProblem(a, "r", "/").status).toBe(500);
    expect(toProblem("string", "r", "/").status).toBe(500);
    expect(toProblem(null, "r", "/").status).toBe(500);
  });
});

describe("405 handlers", () => {
  it("answer every other method with a problem, Allow and a request id", async () => {
    const methods = readOnlyMethods();
    expect(Object.keys(methods).sort()).toEqual(["DELETE", "OPTIONS", "PATCH", "POST", "PUT"]);
    for (const [method, handler] of Object.entries(methods)) {
      const res = await handler(request("/api/v1/players", { method, headers: { "X-Request-ID": "m-1" } }));
      const body = await expectProblem(res, 405);
      expect(res.headers.get("allow")).toBe("GET, HEAD");
      expect(res.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
      expect(body.detail).toContain(method);
    }
    const custom = await methodNotAllowedHandler(["GET"])(request("/", { method: "POST" }));
    expect(custom.headers.get("allow")).toBe("GET");
  });
});

it("ApiError carries its status and its type's absolute URI into a problem", () => {
  const error = new ApiError({ status: 418, type: "not-found", title: "T", detail: "d" });
  expect(error.status).toBe(418);
  expect(error.type).toMatch(/^https?:\/\/[^/]+\/problems\/not-found$/);
});

describe("requestFilters", () => {
  it("records prototype-named parameters as sent", () => {
    const filters = requestFilters(new URLSearchParams("constructor=1&__proto__=2&toString=a&toString=b"));
    expect(Object.entries(filters)).toEqual([
      ["constructor", "1"],
      ["__proto__", "2"],
      ["toString", ["a", "b"]],
    ]);
  });
});
