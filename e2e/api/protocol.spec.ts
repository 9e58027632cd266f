import { connect } from "node:net";
import { expect, test } from "@playwright/test";
import { type RawAnswer, rawRequest } from "../../test/support/raw-http.ts";
import { FIXTURE_PLAYER_ID } from "../../test/support/test-fixtures.ts";
import { AUTH, expectProblem, get, problemValidator } from "./helpers.ts";

const PLAYER_PATHS = [
  `/api/v1/players/${FIXTURE_PLAYER_ID}`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transactions/export`,
  "/api/v1/players",
];

test.describe("authentication (AUTH_MODE=demo)", () => {
  test("both headers are required on every player operation", async ({ request }) => {
    for (const path of PLAYER_PATHS) {
      // Credentials first: no usable token is a 401 naming Authorization, whatever the session id.
      const unauthorized: Record<string, string>[] = [
        {},
        { "X-Session-ID": "s" },
        { Authorization: "Basic dTpw", "X-Session-ID": "s" },
        { Authorization: "Bearer", "X-Session-ID": "s" },
        { Authorization: "Bearer a b", "X-Session-ID": "s" },
        { Authorization: "Bearer a b" },
      ];
      for (const headers of unauthorized) {
        const res = await request.get(path, { headers });
        const body = await expectProblem(res, 401, ["Authorization"]);
        expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/unauthorized$/);
        expect(res.headers()["www-authenticate"], JSON.stringify(headers)).toMatch(
          /^Bearer realm="player-account-read"/,
        );
      }
      // A token that is accepted without a usable session id: the request is malformed, a 400 naming the header.
      const malformed: Record<string, string>[] = [
        { Authorization: "Bearer t" },
        { Authorization: "Bearer t", "X-Session-ID": "   " },
        { Authorization: "Bearer t", "X-Session-ID": "x".repeat(129) },
      ];
      for (const headers of malformed) {
        const res = await request.get(path, { headers });
        const body = await expectProblem(res, 400, ["X-Session-ID"]);
        expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/invalid-parameters$/);
        expect(res.headers()["www-authenticate"], JSON.stringify(headers)).toBeUndefined();
      }
    }
  });

  test("any non-empty token is accepted, the scheme in any case", async ({ request }) => {
    for (const scheme of ["Bearer", "bearer", "BEARER"]) {
      const res = await request.get(PLAYER_PATHS[0] as string, {
        headers: { Authorization: `${scheme} whatever`, "X-Session-ID": "x".repeat(128) },
      });
      expect(res.status(), scheme).toBe(200);
    }
  });

  test("health, the OpenAPI document and the docs need no credentials", async ({ request }) => {
    expect((await request.get("/api/health")).status()).toBe(200);
    expect((await request.get("/api/v1/openapi.json")).status()).toBe(200);
    expect((await request.get("/api/v1/docs")).status()).toBe(200);
  });
});

/** Every API route: each answers GET (and HEAD) only. */
const READ_ONLY_ROUTES = [
  ...PLAYER_PATHS,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/audit`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/monthly-activity`,
  `/api/v1/players/${FIXTURE_PLAYER_ID}/transaction-facets`,
  "/api/health",
  "/api/v1/openapi.json",
  "/api/v1/docs",
  "/api/session/token",
];

function expectMethodNotAllowed(answer: RawAnswer, allow: string, what: string) {
  expect(answer.status, `${what}: ${answer.body}`).toBe(405);
  expect(answer.headers["content-type"], what).toBe("application/problem+json");
  expect(answer.headers.allow, what).toBe(allow);
  expect(answer.headers["x-request-id"], what).toBeTruthy();
  expect(JSON.parse(answer.body), what).toMatchObject({
    type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/method-not-allowed$/),
    status: 405,
  });
}

test.describe("protocol", () => {
  test("other methods, OPTIONS included, are 405 problems with Allow: GET, HEAD on every route", async ({
    request,
  }) => {
    for (const path of READ_ONLY_ROUTES) {
      for (const method of ["POST", "PUT", "PATCH", "DELETE", "OPTIONS"]) {
        const res = await request.fetch(path, {
          method,
          headers: AUTH,
          data: method === "POST" ? { a: 1 } : undefined,
        });
        const body = await expectProblem(res, 405);
        expect(res.headers().allow, `${method} ${path}`).toBe("GET, HEAD");
        expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/method-not-allowed$/);
      }
    }
  });

  test("sign-in answers OPTIONS like every route: 405 with the methods it takes", async ({ request }) => {
    for (const path of ["/api/auth/session", "/api/auth/providers", "/api/auth/signin"]) {
      for (const method of ["OPTIONS", "PUT", "DELETE"]) {
        const res = await request.fetch(path, { method, maxRedirects: 0 });
        expect(res.status(), `${method} ${path}`).toBe(405);
        expect(res.headers().allow).toBe("GET, HEAD, POST");
        expect(res.headers()["content-type"]).toBe("application/problem+json");
      }
    }
  });

  test("TRACE and methods no route knows are 405 problems on every path, not a 500 or an empty 400", async ({
    baseURL,
  }) => {
    const everyKind = [...READ_ONLY_ROUTES, "/api/nope", "/", "/players/P000007", "/favicon.ico"];
    for (const path of everyKind) {
      for (const method of ["TRACE", "PROPFIND", "SEARCH"]) {
        expectMethodNotAllowed(
          await rawRequest(baseURL ?? "", method, path),
          "GET, HEAD",
          `${method} ${path}`,
        );
      }
    }
    expectMethodNotAllowed(
      await rawRequest(baseURL ?? "", "TRACE", "/api/auth/session"),
      "GET, HEAD, POST",
      "TRACE",
    );
    // Node's parser does not know these at all: it used to write a bare 400 itself.
    for (const method of ["FOO", "get", "BREW"]) {
      expectMethodNotAllowed(await rawRequest(baseURL ?? "", method, "/api/health"), "GET, HEAD", method);
    }
  });

  test("an unknown /api path is a problem+json 404 for any method", async ({ request }) => {
    for (const path of ["/api/nope", "/api/v1/players/P000001/nope", "/api/v2/players/P000001", "/api/v1"]) {
      for (const method of ["GET", "POST", "DELETE", "OPTIONS"]) {
        const body = await expectProblem(await request.fetch(path, { method, headers: AUTH }), 404);
        expect(body.type).toMatch(/^https?:\/\/[^/]+\/problems\/not-found$/);
      }
    }
    const head = await request.head("/api/nope");
    expect(head.status()).toBe(404);
  });

  test("X-Request-ID: always the server's own id, whatever the client sends, on successes and errors", async ({
    request,
  }) => {
    const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
    for (const path of [
      ...PLAYER_PATHS,
      "/api/v1/players/NOPE",
      "/api/health",
      "/api/v1/openapi.json",
      "/api/nope",
    ]) {
      const ids = new Set<string>();
      for (const sent of ["trace-123.abc:DEF_4", "x".repeat(129), "has space", "a;b", "<x>", undefined]) {
        const res = await get(request, path, sent === undefined ? {} : { "X-Request-ID": sent });
        const id = res.headers()["x-request-id"] ?? "";
        expect(id, `${path} ${sent}`).toMatch(uuid);
        ids.add(id);
      }
      expect(ids.size, path).toBe(6);
    }
    const res = await get(request, "/api/v1/players/NOPE", { "X-Request-ID": "rid-1" });
    const problem = await expectProblem(res, 404);
    expect(problem.request_id).toBe(res.headers()["x-request-id"]);
  });

  test("player data is never stored by any cache: JSON reads are private, no-store with an ETag, the export and problems no-store", async ({
    request,
  }) => {
    for (const path of PLAYER_PATHS) {
      const res = await get(request, path);
      const expected = path.endsWith("/export") ? "no-store, no-transform" : "private, no-store";
      expect(res.headers()["cache-control"], path).toBe(expected);
      if (path.endsWith("/export")) expect(res.headers().etag, path).toBeUndefined();
      else expect(res.headers().etag, path).toMatch(/^W\/"/);
    }
    expect((await get(request, "/api/v1/players/NOPE")).headers()["cache-control"]).toBe("no-store");
    expect((await request.get(PLAYER_PATHS[0] as string)).headers()["cache-control"]).toBe("no-store");
  });

  test("If-None-Match with the current ETag answers 304 without a body", async ({ request }) => {
    const first = await get(request, PLAYER_PATHS[0] as string);
    const etag = first.headers().etag as string;
    const again = await get(request, PLAYER_PATHS[0] as string, { "If-None-Match": etag });
    expect(again.status()).toBe(304);
    expect(again.headers().etag).toBe(etag);
    expect((await again.body()).length).toBe(0);
  });

  test("problem bodies match the documented Problem schema", async ({ request }) => {
    const validate = await problemValidator(request);
    for (const res of [
      await request.get(PLAYER_PATHS[0] as string),
      await get(request, "/api/v1/players/NOPE"),
      await get(request, `${PLAYER_PATHS[1]}?limit=0&foo=1`),
      await request.fetch(PLAYER_PATHS[2] as string, { method: "DELETE", headers: AUTH }),
      await get(request, "/api/nope"),
      await get(request, "/api/v1/players/%E0%A4%A"),
    ]) {
      const body = await res.json();
      expect(validate(body), JSON.stringify(validate.errors)).toBe(true);
    }
  });

  test("a path that is not valid percent-encoding is a 400 problem, not a server error", async ({
    request,
  }) => {
    for (const path of ["/api/v1/players/%E0%A4%A", "/api/v1/players/%/transactions", "/api/%ZZ"]) {
      await expectProblem(await get(request, path), 400, ["path"]);
    }
  });

  test("health reports the database", async ({ request }) => {
    const res = await request.get("/api/health");
    expect(res.status()).toBe(200);
    expect(await res.json()).toMatchObject({ status: "ok", database: { reachable: true } });
    expect(res.headers()["x-request-id"]).toBeTruthy();
  });

  test("an idle keep-alive connection stays open well past Node's 5 s default", async ({ baseURL }) => {
    // Clients and load balancers reuse idle connections for up to a minute; a server that closes them sooner
    // races with their next request (ECONNRESET). One request, 7 s idle, a second request on the same socket.
    const { hostname, port } = new URL(baseURL ?? "");
    const socket = connect({ host: hostname, port: Number(port) });
    let received = "";
    let closedAt: number | null = null;
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("close", () => {
      closedAt = Date.now();
    });
    const request = `GET /api/health HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: keep-alive\r\n\r\n`;
    try {
      await new Promise<void>((resolve, reject) => {
        socket.once("connect", resolve);
        socket.once("error", reject);
      });
      socket.write(request);
      await expect.poll(() => received.match(/HTTP\/1\.1 200/g)?.length ?? 0).toBe(1);
      await new Promise((resolve) => setTimeout(resolve, 7_000));
      expect(closedAt, "the server closed the idle connection").toBeNull();
      socket.write(request);
      await expect.poll(() => received.match(/HTTP\/1\.1 200/g)?.length ?? 0).toBe(2);
    } finally {
      socket.destroy();
    }
  });
});
