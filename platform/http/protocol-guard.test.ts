import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rawHttp } from "@/test/support/raw-http";
import { allowedMethods, installProtocolGuard, lostQueryKey } from "./protocol-guard.ts";
import { CONNECTION_HEADER, closeConnection, installRequestStamp } from "./request-stamp.mjs";

/*
 * A real node:http server with the hooks the app's server gets (server-hooks.ts): what reaches the request
 * listener, and what is answered before it.
 */
let server: Server;
let port = 0;
const seen: { method?: string; connection?: string }[] = [];

beforeAll(async () => {
  installRequestStamp();
  installProtocolGuard();
  server = createServer((req, res) => {
    const headers = new Headers(req.headers as Record<string, string>);
    seen.push({ method: req.method, connection: headers.get(CONNECTION_HEADER) ?? undefined });
    if (req.url === "/close") {
      res.write("partial");
      setTimeout(() => closeConnection(headers), 20);
      return;
    }
    res.end("routed");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const raw = (request: string) => rawHttp(port, request);

// A host name of this server: in the test process (no AUTH_MODE, no DATABASE_URL) the gate is in demo mode.
const request = (method: string, path = "/api/health", extra = "") =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n${extra}\r\n`;

describe("the protocol guard", () => {
  it("answers methods Next.js does not route with a 405 problem, before the request listener", async () => {
    const before = seen.length;
    for (const method of ["TRACE", "PROPFIND", "SEARCH"]) {
      const answer = await raw(request(method, "/api/v1/players"));
      expect(answer).toMatch(/^HTTP\/1\.1 405 /);
      expect(answer).toMatch(/\r\nContent-Type: application\/problem\+json\r\n/i);
      expect(answer).toMatch(/\r\nAllow: GET, HEAD\r\n/i);
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
        type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/method-not-allowed$/),
        status: 405,
        instance: "/api/v1/players",
      });
    }
    expect(seen.length).toBe(before);
    expect(await raw(request("GET"))).toMatch(/^HTTP\/1\.1 200 [\s\S]*routed$/);
  });

  it("names the path of an absolute-form target (as a forward proxy sends it), not the whole URL", async () => {
    const answer = await raw(request("TRACE", "http://x/api/auth/signin?next=%2F"));
    expect(answer).toMatch(/^HTTP\/1\.1 405 [\s\S]*\r\nAllow: GET, HEAD, POST\r\n/i);
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
      instance: "/api/auth/signin",
    });
  });

  it("answers methods Node cannot parse, and other parse errors, with problem bodies", async () => {
    const foo = await raw(request("FOO"));
    expect(foo).toMatch(/^HTTP\/1\.1 405 [\s\S]*\r\nAllow: GET, HEAD\r\n/);
    expect(foo).toMatch(/"type":"https?:\/\/[^/"]+\/problems\/method-not-allowed"/);
    const garbage = await raw("GET / HTTP/1.1\r\nHost: x\r\nno colon here\r\n\r\n");
    expect(garbage).toMatch(/^HTTP\/1\.1 400 /);
    expect(garbage).toContain('"status":400');
  });

  it("sign-in takes form posts; everything else is read-only", () => {
    expect(allowedMethods("/api/auth/callback/credentials")).toEqual(["GET", "HEAD", "POST"]);
    expect(allowedMethods("/api/v1/players")).toEqual(["GET", "HEAD"]);
  });
});

describe("query keys Next.js would lose", () => {
  it("(why) Next.js's own copy of the query drops `__proto__`, so a route would never see it", async () => {
    const { parseUrl } = await import("next/dist/shared/lib/router/utils/parse-url.js");
    expect(Object.keys(parseUrl("/api/v1/players?__proto__=1&q=a").query)).toEqual(["q"]);
  });

  it("answers `__proto__` in an API query, in any spelling, with a 400 naming it, before the listener", async () => {
    const before = seen.length;
    for (const query of ["__proto__=1", "q=a&__proto__", "%5F%5Fproto%5F%5F=1", "__%70roto__=x&limit=5"]) {
      const answer = await raw(request("GET", `/api/v1/players?${query}`));
      expect(answer, query).toMatch(
        /^HTTP\/1\.1 400 [\s\S]*\r\nContent-Type: application\/problem\+json\r\n/i,
      );
      expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4)), query).toMatchObject({
        type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/invalid-parameters$/),
        status: 400,
        instance: "/api/v1/players",
        errors: [{ name: "__proto__", in: "query", detail: "is not a known parameter" }],
      });
    }
    expect(seen.length).toBe(before);
  });

  it("lets through what Next.js keeps (the API names it) and pages", async () => {
    for (const path of [
      "/api/v1/players?__proto__[]=1",
      "/api/v1/players?q=proto%25",
      "/players/P1?__proto__=1",
    ]) {
      expect(await raw(request("GET", path)), path).toMatch(/^HTTP\/1\.1 200 [\s\S]*routed$/);
    }
    expect(lostQueryKey("/api/v1/players")).toBeNull();
    expect(lostQueryKey("http://x/api/v1/players?__proto__=1")).toBe("__proto__");
  });
});

describe("the connection stamp", () => {
  it("names the connection (a client cannot choose it) and lets a handler close it", async () => {
    const answer = await raw(request("GET", "/close", `${CONNECTION_HEADER}: 999999\r\n`));
    // The server closed the connection mid-response: the chunked body never got its last chunk.
    expect(answer).toContain("partial");
    expect(answer).not.toMatch(/0\r\n\r\n$/);
    const stamped = seen.at(-1)?.connection;
    expect(stamped).toMatch(/^\d+$/);
    expect(stamped).not.toBe("999999");
    // Once closed, the connection is forgotten.
    await expect.poll(() => closeConnection(new Headers({ [CONNECTION_HEADER]: stamped ?? "" }))).toBe(false);
  });
});

describe("the security headers stamp", () => {
  it("puts the path's security headers on every response, also those no route handler writes", async () => {
    const routed = await raw(request("GET", "/api/health"));
    expect(routed).toMatch(
      /\r\ncontent-security-policy: default-src 'none'; frame-ancestors 'none'; sandbox\r\n/i,
    );
    expect(routed).toMatch(/\r\nx-content-type-options: nosniff\r\n/i);
    expect(routed).not.toMatch(/strict-transport-security/i);
    const page = await raw(request("GET", "/players/P1", "X-Forwarded-Proto: https\r\n"));
    expect(page).toMatch(/\r\ncontent-security-policy: default-src 'self'; /i);
    expect(page).toMatch(/\r\nstrict-transport-security: max-age=\d+/i);
    // The guard's own 405, written before any route could run.
    const refused = await raw(request("TRACE", "/api/v1/players"));
    expect(refused).toMatch(/^HTTP\/1\.1 405 [\s\S]*\r\nx-frame-options: DENY\r\n/i);
  });
});
