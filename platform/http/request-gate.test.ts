import { createServer, type Server } from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { restoreEnv, stubEnv } from "@/test/support/env";
import { parseRawAnswer, rawHttp } from "@/test/support/raw-http";
import { BODY_LIMIT, bodyLimit, hostName, readServerSettings, resetServerSettings } from "./request-gate.mjs";
import { installRequestStamp } from "./request-stamp.mjs";

/*
 * A real node:http server with the request stamp installed as the app's server has it: what the gate answers
 * itself, and what reaches the request listener (Next.js's, in the app) with which body.
 */
let server: Server;
let port = 0;
const routed: {
  method?: string;
  url?: string;
  bytes: number;
  forwardedHost?: string;
}[] = [];

beforeAll(async () => {
  installRequestStamp();
  server = createServer(async (req, res) => {
    let bytes = 0;
    for await (const chunk of req) bytes += (chunk as Buffer).length;
    routed.push({
      method: req.method,
      url: req.url,
      bytes,
      forwardedHost: req.headers["x-forwarded-host"] as string | undefined,
    });
    res.end(`routed ${bytes}`);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as { port: number }).port;
});

afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

const GATE_VARIABLES = ["AUTH_MODE", "DATABASE_URL", "NEXTAUTH_URL", "LISTEN_HOST", "TRUSTED_PROXIES"];
function environment(env: Record<string, string | undefined>) {
  stubEnv(Object.fromEntries(GATE_VARIABLES.map((name) => [name, env[name]])));
  resetServerSettings();
}
afterEach(() => {
  restoreEnv();
  resetServerSettings();
});

const head = (method: string, path: string, fields: string[] = [], host = "localhost") =>
  `${method} ${path} HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n${fields.map((f) => `${f}\r\n`).join("")}\r\n`;

const SIGN_IN = "/api/auth/callback/credentials";
const chunk = (size: number) => `${size.toString(16)}\r\n${"a".repeat(size)}\r\n`;

async function exchange(text: Promise<string>) {
  const answer = parseRawAnswer(await text);
  return { ...answer, problem: answer.body.startsWith("{") ? JSON.parse(answer.body) : null };
}

describe("request bodies", () => {
  it("refuses a declared body over 16 KiB with 413 before any listener reads it, and closes", async () => {
    environment({ AUTH_MODE: "jwt" });
    const before = routed.length;
    const big = 80 * 1024 * 1024;
    const body = (function* () {
      for (let sent = 0; sent < big; sent += 65_536) yield Buffer.alloc(65_536, 97);
    })();
    const res = await exchange(rawHttp(port, head("POST", SIGN_IN, [`Content-Length: ${big}`]), body));
    expect(res.status).toBe(413);
    expect(res.headers["content-type"]).toBe("application/problem+json");
    expect(res.headers.connection).toBe("close");
    // The stamp's security headers are on the gate's answers too.
    expect(res.headers["x-frame-options"]).toBe("DENY");
    expect(res.problem).toMatchObject({
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/content-too-large$/),
      status: 413,
      errors: [{ name: "Content-Length", in: "header" }],
    });
    expect(res.problem.request_id).toBe(res.headers["x-request-id"]);
    expect(routed.length).toBe(before);
  });

  it("routes a sign-in form within the bound, its whole body readable", async () => {
    environment({ AUTH_MODE: "jwt" });
    const form = `username=${"u".repeat(BODY_LIMIT - 9)}`;
    const res = await exchange(
      rawHttp(port, head("POST", SIGN_IN, [`Content-Length: ${form.length}`]), [form]),
    );
    expect(res.body).toBe(`routed ${BODY_LIMIT}`);
  });

  it("refuses any body on a read (GET, HEAD); an empty one is no body", async () => {
    environment({ AUTH_MODE: "jwt" });
    const refused = await exchange(
      rawHttp(port, head("GET", "/api/v1/players", ["Content-Length: 5"]), ["hello"]),
    );
    expect(refused.status).toBe(413);
    expect(refused.problem.detail).toBe("This request takes no body.");
    for (const fields of [[], ["Content-Length: 0"]]) {
      expect((await exchange(rawHttp(port, head("GET", "/api/v1/players", fields)))).body).toBe("routed 0");
    }
  });

  it("counts a chunked body as it arrives: refused once over the bound, routed whole within it", async () => {
    environment({ AUTH_MODE: "jwt" });
    const before = routed.length;
    const chunked = head("POST", SIGN_IN, ["Transfer-Encoding: chunked"]);
    const endless = (function* () {
      for (;;) yield chunk(4096);
    })();
    const refused = await exchange(rawHttp(port, chunked, endless));
    expect(refused.status).toBe(413);
    expect(refused.problem.errors).toEqual([
      { name: "Transfer-Encoding", in: "header", detail: `the body exceeded ${BODY_LIMIT} bytes` },
    ]);
    expect(routed.length).toBe(before);
    // Exactly the bound, in chunks, is routed with every byte (the held stream must not stall the parser).
    const parts = [...Array<string>(4).fill(chunk(4096)), "0\r\n\r\n"];
    expect((await exchange(rawHttp(port, chunked, parts))).body).toBe(`routed ${BODY_LIMIT}`);
    const getChunked = head("GET", "/api/health", ["Transfer-Encoding: chunked"]);
    expect((await exchange(rawHttp(port, getChunked, [chunk(1), "0\r\n\r\n"]))).status).toBe(413);
    expect((await exchange(rawHttp(port, getChunked, ["0\r\n\r\n"]))).body).toBe("routed 0");
  });

  it("answers Expect: 100-continue with the 413 itself, never inviting the body", async () => {
    environment({ AUTH_MODE: "jwt" });
    const text = await rawHttp(
      port,
      head("POST", SIGN_IN, ["Content-Length: 83886080", "Expect: 100-continue"]),
    );
    expect(text).toMatch(/^HTTP\/1\.1 413 /);
    const small = await rawHttp(port, head("POST", SIGN_IN, ["Content-Length: 3", "Expect: 100-continue"]), [
      "a=1",
    ]);
    expect(small).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 [\s\S]*routed 3$/);
  });

  it("bounds other methods too (they are answered 405 unread) and the dev server's tools more loosely", () => {
    expect(bodyLimit("POST", "/api/v1/players", false)).toBe(BODY_LIMIT);
    expect(bodyLimit("DELETE", "/", false)).toBe(BODY_LIMIT);
    expect(bodyLimit("HEAD", "/api/auth/session", false)).toBe(0);
    expect(bodyLimit("POST", "/__nextjs_original-stack-frames", true)).toBe(1024 * 1024);
    expect(bodyLimit("POST", "/__nextjs_original-stack-frames", false)).toBe(BODY_LIMIT);
  });
});

describe("host names in demo mode", () => {
  it("answers a foreign Host (a rebound DNS name) with 421, pages and API alike", async () => {
    environment({ NEXTAUTH_URL: "http://backoffice.test:8080" });
    const before = routed.length;
    for (const path of ["/api/v1/players/P000007", "/sign-in"]) {
      for (const host of ["evil.example", `evil.example:${port}`, "localhost.evil.example", "", "[::1"]) {
        const res = await exchange(rawHttp(port, head("GET", path, [], host)));
        expect(res.status, `${path} ${host}`).toBe(421);
        expect(res.problem).toMatchObject({
          type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/misdirected-request$/),
          errors: [{ name: "Host", in: "header" }],
        });
        expect(res.headers["x-content-type-options"]).toBe("nosniff");
      }
    }
    expect(routed.length).toBe(before);
    for (const host of ["localhost", `LocalHost:${port}`, "127.0.0.1:1", "[::1]:3000", "backoffice.test"]) {
      expect((await exchange(rawHttp(port, head("GET", "/sign-in", [], host)))).status, host).toBe(200);
    }
  });

  it("is demo mode's alone: AUTH_MODE=jwt answers any host name (it needs real tokens)", async () => {
    environment({ AUTH_MODE: "jwt", DATABASE_URL: "postgresql://db/x" });
    expect((await exchange(rawHttp(port, head("GET", "/sign-in", [], "evil.example")))).status).toBe(200);
  });

  it("knows the demo server's names: loopback, NEXTAUTH_URL's, LISTEN_HOST's unless it is every address", () => {
    const hosts = (env: Record<string, string>) => [...(readServerSettings(env).demoHosts ?? [])].sort();
    expect(hosts({})).toEqual(["127.0.0.1", "[::1]", "localhost"]);
    expect(hosts({ AUTH_MODE: "demo", NEXTAUTH_URL: "https://BO.example/x", LISTEN_HOST: "::1" })).toContain(
      "bo.example",
    );
    expect(hosts({ LISTEN_HOST: "192.0.2.7" })).toContain("192.0.2.7");
    expect(hosts({ LISTEN_HOST: "0.0.0.0" })).toEqual(["127.0.0.1", "[::1]", "localhost"]);
    expect(readServerSettings({ DATABASE_URL: "postgresql://db/x", AUTH_MODE: "jwt" }).demoHosts).toBeNull();
    expect(hostName("[::1]:80")).toBe("[::1]");
    expect(hostName("Example.test:1")).toBe("example.test");
  });
});

describe("forwarded host", () => {
  it("is dropped unless the connection comes from a proxy TRUSTED_PROXIES names", async () => {
    const forwarded = ["X-Forwarded-Host: evil.example"];
    environment({ AUTH_MODE: "jwt" });
    await rawHttp(port, head("GET", "/x", forwarded));
    expect(routed.at(-1)).toMatchObject({ forwardedHost: undefined });
    // This test's connections come from 127.0.0.1: another address in the list is no reason to believe them.
    environment({ AUTH_MODE: "jwt", TRUSTED_PROXIES: "127.0.0.2, 10.0.0.0/8" });
    await rawHttp(port, head("GET", "/x", forwarded));
    expect(routed.at(-1)).toMatchObject({ forwardedHost: undefined });
    environment({ AUTH_MODE: "jwt", TRUSTED_PROXIES: "127.0.0.0/30" });
    await rawHttp(port, head("GET", "/x", ["X-Forwarded-Host: proxy.example"]));
    expect(routed.at(-1)).toMatchObject({ forwardedHost: "proxy.example" });
  });
});
