import { expect, test } from "@playwright/test";
import { DEMO_CREDENTIALS } from "../../platform/auth/demo-credentials.ts";
import { rssMiB } from "../../test/support/app-process.ts";
import { parseRawAnswer, rawHttp } from "../../test/support/raw-http.ts";
import { type AppProcess, appBase, appsStoppedAfterAll, postgresTestDatabase } from "./harness.ts";

/*
 * One unauthenticated request used to take the server down: next-auth reads every POST body whole (and the
 * password throttle read the sign-in form once more), so an 80 MB form post ran the 256 MB heap out and the
 * process exited, the launcher with it; 20 MB added ~100 MB of RSS. Bodies are now bounded before any parser
 * (platform/http/request-gate.mjs). Both sign-in configurations: password sign-in (demo accounts) and OIDC only.
 */
const start = appsStoppedAfterAll();
const MiB = 1024 * 1024;

/** `size` bytes of a form body, produced as they are sent (the test never holds them). */
function* formBody(size: number): Generator<Buffer> {
  const block = Buffer.alloc(64 * 1024, "a");
  yield Buffer.from("username=");
  for (let sent = 9; sent < size; sent += block.length) yield block;
}

function post(app: AppProcess, path: string, fields: string[], body: Iterable<Buffer | string>) {
  const { port } = new URL(app.url);
  const head = [`POST ${path} HTTP/1.1`, `Host: 127.0.0.1:${port}`, ...fields, "", ""].join("\r\n");
  return rawHttp(Number(port), head, body).then(parseRawAnswer);
}

/** Sends each oversized body to each sign-in path; the server answers 413 at once and stays small. */
async function expectBoundedBodies(app: AppProcess, paths: string[]) {
  const server = app.serverPid();
  expect(server).not.toBeNull();
  const before = rssMiB(server ?? 0) ?? 0;
  for (const path of paths) {
    const declared = await post(
      app,
      path,
      ["Content-Type: application/x-www-form-urlencoded", `Content-Length: ${80 * MiB}`],
      formBody(80 * MiB),
    );
    expect(declared.status, path).toBe(413);
    expect(declared.headers["content-type"]).toBe("application/problem+json");
    expect(declared.headers.connection).toBe("close");
    expect(declared.headers["x-frame-options"]).toBe("DENY");
    expect(JSON.parse(declared.body)).toMatchObject({
      type: expect.stringMatching(/^https?:\/\/[^/]+\/problems\/content-too-large$/),
      status: 413,
      errors: [{ name: "Content-Length", in: "header" }],
    });
    // No length declared: counted as the chunks arrive.
    const chunk = `10000\r\n${"a".repeat(0x10000)}\r\n`;
    const chunked = await post(
      app,
      path,
      ["Content-Type: application/x-www-form-urlencoded", "Transfer-Encoding: chunked"],
      Array<string>(20 * 16).fill(chunk),
    );
    expect(chunked.status, path).toBe(413);
    expect(JSON.parse(chunked.body).errors).toMatchObject([{ name: "Transfer-Encoding" }]);
  }
  expect((await fetch(`${app.url}/api/health`)).status).toBe(200);
  const after = rssMiB(server ?? 0) ?? 0;
  test.info().annotations.push({
    type: "server RSS",
    description: `${before.toFixed(0)} MiB before, ${after.toFixed(0)} MiB after ${paths.length * 2} oversized posts`,
  });
  // Before: +375 MiB for one 80 MB post to /api/auth/signin, then the heap ran out. (Measured now: 1-30 MiB, the
  // socket buffers of what was discarded while the refused connections lingered.)
  expect(after - before).toBeLessThan(64);
}

test("password sign-in: an 80 MB or endless chunked form post is 413 and the server stays up and small", async ({
  request,
}) => {
  const app = await start(appBase + 5, {
    DATABASE_URL: postgresTestDatabase(),
    AUTH_MODE: "demo",
    LOG_LEVEL: "warn",
  });
  await expectBoundedBodies(app, ["/api/auth/callback/credentials", "/api/auth/callback/credentials/x"]);
  // A form within the bound still signs in.
  const admin = DEMO_CREDENTIALS.find((c) => c.role === "admin");
  const { csrfToken } = await (await request.get(`${app.url}/api/auth/csrf`)).json();
  const signIn = await request.post(`${app.url}/api/auth/callback/credentials`, {
    form: { username: admin?.username ?? "", password: admin?.password ?? "", csrfToken, json: "true" },
  });
  expect(signIn.status()).toBe(200);
  expect(signIn.headersArray().some((h) => /^next-auth\.session-token=[^;]/.test(h.value))).toBe(true);
});

test("OIDC only: the same posts are 413 there too", async () => {
  const app = await start(appBase + 7, {
    DATABASE_URL: postgresTestDatabase(),
    AUTH_MODE: "jwt",
    AUTH_JWT_SECRET: "oversized-bodies-spec-jwt-secret-0123456789",
    // Never contacted: the bodies are refused before next-auth runs.
    OIDC_ISSUER: "http://127.0.0.1:9/oidc",
    OIDC_CLIENT_ID: "back-office",
    OIDC_CLIENT_SECRET: "back-office-secret",
    LOG_LEVEL: "warn",
  });
  await expectBoundedBodies(app, ["/api/auth/signin/oidc", "/api/auth/callback/credentials"]);
});
