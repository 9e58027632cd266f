import { randomUUID } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { expect, test } from "@playwright/test";
import { Redis } from "ioredis";
import { deleteRedisKeys } from "../../test/support/redis-keys.ts";
import { appBase, appsStoppedAfterAll, auditRowsOf, type HttpResult, httpGet, isFailure } from "./harness.ts";

/*
 * The HTTP edge of production servers of this spec's own: Upgrade requests on every path are answered and their
 * sockets closed (counted in the kernel's socket table, by state), small JSON answers leave whole with their
 * Content-Length, a 304 costs no quota (memory and Redis stores) but is audited, and sign-out clears the browser's
 * copy of the site's data.
 */
const DATABASE_URL = process.env.E2E_POSTGRES_URL;
const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const REDIS_PREFIX = `${process.env.TEST_DB_PREFIX ?? "par"}:e2e-edge:${randomUUID()}:`;
const PLAYER = "P000007";
const start = appsStoppedAfterAll();
let embeddedDir: string | undefined;

test.afterAll(async () => {
  if (embeddedDir) rmSync(embeddedDir, { recursive: true, force: true });
  await deleteRedisKeys(REDIS_URL, REDIS_PREFIX);
});

const postgresEnv = () => ({
  DATABASE_URL: DATABASE_URL as string,
  AUTH_MODE: "demo",
  LOG_LEVEL: "warn",
  // 600 a day: the bucket refills ~0.007 tokens a second, never a whole token during a test.
  RATE_LIMIT_MAX: "600",
  RATE_LIMIT_WINDOW_SECONDS: "86400",
});

/** TCP states of /proc/net/tcp (include/net/tcp_states.h). */
const TCP_STATES: Record<string, string> = {
  "01": "ESTABLISHED",
  "02": "SYN_SENT",
  "03": "SYN_RECV",
  "04": "FIN_WAIT1",
  "05": "FIN_WAIT2",
  "06": "TIME_WAIT",
  "07": "CLOSE",
  "08": "CLOSE_WAIT",
  "09": "LAST_ACK",
  "0A": "LISTEN",
  "0B": "CLOSING",
};

/** The server side of the connections from `clientPorts` to `port`: each one's TCP state. */
function serverSockets(port: number, clientPorts: ReadonlySet<number>): string[] {
  const states: string[] = [];
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    let table = "";
    try {
      table = readFileSync(file, "utf8");
    } catch {
      continue;
    }
    for (const line of table.split("\n").slice(1)) {
      const [, local, remote, state] = line.trim().split(/\s+/);
      if (!local || !remote || !state) continue;
      const localPort = Number.parseInt(local.split(":")[1] ?? "", 16);
      const remotePort = Number.parseInt(remote.split(":")[1] ?? "", 16);
      if (localPort === port && clientPorts.has(remotePort)) states.push(TCP_STATES[state] ?? state);
    }
  }
  return states;
}

/** States in which the server still holds the socket open (a file descriptor of its own). */
const HELD = new Set(["ESTABLISHED", "CLOSE_WAIT", "SYN_RECV"]);

interface UpgradeExchange {
  clientPort: number;
  answer: string;
  closedByServer: boolean;
}

/**
 * Sends an Upgrade request and waits for the server to answer and close (FIN), or `waitMs` without that;
 * then closes the client side.
 */
function sendUpgrade(
  port: number,
  target: string,
  waitMs: number,
  headers: Record<string, string> = {},
  untilHead = false,
): Promise<UpgradeExchange> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let answer = "";
    let clientPort = 0;
    const done = (closedByServer: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve({ clientPort, answer, closedByServer });
    };
    const timer = setTimeout(() => done(false), waitMs);
    socket.on("connect", () => {
      clientPort = socket.localPort ?? 0;
      socket.write(
        `GET ${target} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n" +
          Object.entries(headers)
            .map(([name, value]) => `${name}: ${value}\r\n`)
            .join("") +
          "\r\n",
      );
    });
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
      // An accepted upgrade stays open: its head is the answer.
      if (untilHead && answer.includes("\r\n\r\n")) done(false);
    });
    socket.on("end", () => done(true));
    socket.on("error", () => done(false));
  });
}

const UPGRADE_TARGETS = [
  "/",
  `/players/${PLAYER}`,
  "/sign-in",
  "/no/such/page",
  `/api/v1/players/${PLAYER}`,
  "/api/health",
  "/_next/hmr",
  "/_next/webpack-hmr",
  "/problems/not-found",
  "http://127.0.0.1/absolute-form",
];

async function expectUpgradesRefusedAndClosed(port: number, targets = UPGRADE_TARGETS): Promise<void> {
  const exchanges = await Promise.all(
    Array.from({ length: 60 }, (_, i) => sendUpgrade(port, targets[i % targets.length] as string, 30_000)),
  );
  const statuses = exchanges.map((e) => e.answer.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? "none");
  expect(statuses).toEqual(Array(60).fill("400"));
  expect(exchanges.filter((e) => !e.closedByServer)).toHaveLength(0);
  for (const { answer } of exchanges) {
    expect(answer).toContain("Content-Type: application/problem+json\r\n");
    expect(JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4))).toMatchObject({
      status: 400,
      errors: [{ name: "Upgrade", in: "header" }],
    });
  }
  // Every client has closed: the server holds none of these sockets (no CLOSE_WAIT, no ESTABLISHED).
  const clientPorts = new Set(exchanges.map((e) => e.clientPort));
  await expect
    .poll(() => serverSockets(port, clientPorts).filter((state) => HELD.has(state)), { timeout: 30_000 })
    .toEqual([]);
  // And it still serves.
  const health = await httpGet(`http://127.0.0.1:${port}/api/health`);
  expect(isFailure(health) ? health.error : health.status).toBe(200);
}

test("Upgrade requests on every path are answered 400 and closed: embedded database", async () => {
  test.setTimeout(300_000);
  embeddedDir = mkdtempSync(path.join(tmpdir(), "par-edge-"));
  const port = appBase + 14;
  await start(
    port,
    { EMBEDDED_DB_DIR: path.join(embeddedDir, "pglite"), LOG_LEVEL: "warn" },
    { startTimeoutMs: 180_000 },
  );
  await expectUpgradesRefusedAndClosed(port);
});

test("npm run dev: Next.js's hot reloading socket upgrades, every other Upgrade is answered 400 and closed", async () => {
  // The development server: minutes to start on a loaded 2-core machine.
  test.setTimeout(420_000);
  const dir = mkdtempSync(path.join(tmpdir(), "par-edge-dev-"));
  try {
    const port = appBase + 17;
    const app = await start(
      port,
      { EMBEDDED_DB_DIR: path.join(dir, "pglite"), LOG_LEVEL: "warn" },
      { mode: "dev", startTimeoutMs: 180_000 },
    );
    const hmr = await sendUpgrade(port, `/_next/hmr?id=${randomUUID()}`, 60_000, { Origin: app.url }, true);
    expect(hmr.answer).toMatch(/^HTTP\/1\.1 101 /);
    await expectUpgradesRefusedAndClosed(
      port,
      UPGRADE_TARGETS.filter((t) => t !== "/_next/hmr"),
    );
    await app.stop();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test.describe("on PostgreSQL", () => {
  test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");
  const port = appBase + 15;
  const base = `http://127.0.0.1:${port}`;

  test.beforeAll(async () => {
    await start(port, postgresEnv());
  });

  test("Upgrade requests on every path are answered 400 and closed", async () => {
    await expectUpgradesRefusedAndClosed(port);
  });

  test("a small JSON answer leaves whole with Content-Length; a large one is streamed", async () => {
    const headers = { Authorization: "Bearer demo", "X-Session-ID": `edge-${randomUUID()}` };
    const small = (await httpGet(`${base}/api/v1/players/${PLAYER}`, headers)) as HttpResult;
    expect(small.status).toBe(200);
    expect(small.headers["transfer-encoding"]).toBeUndefined();
    expect(small.headers["content-length"]).toBe(String(Buffer.byteLength(small.body)));
    const problem = (await httpGet(`${base}/api/v1/players/NOPE`, headers)) as HttpResult;
    expect(problem.status).toBe(404);
    expect(problem.headers["content-length"]).toBe(String(Buffer.byteLength(problem.body)));
    const ids = Array.from({ length: 100 }, (_, i) => `P${String(i + 1).padStart(6, "0")}`).join(",");
    const large = (await httpGet(`${base}/api/v1/players?ids=${ids}`, headers)) as HttpResult;
    expect(large.status).toBe(200);
    expect(Buffer.byteLength(large.body)).toBeGreaterThanOrEqual(64 * 1024);
    expect(large.headers["content-length"]).toBeUndefined();
    expect(large.headers["transfer-encoding"]).toBe("chunked");
  });

  test("40 revalidations answered 304 leave RateLimit-Remaining unchanged, each audited (memory store)", async () => {
    await expectFreeRevalidations(base);
  });

  test("sign-out answers Clear-Site-Data: the pages' end-session and next-auth's own", async () => {
    const ended = await post(`${base}/api/auth/end-session`, { Origin: base });
    expect(ended.status).toBe(200);
    expect(ended.headers["clear-site-data"]).toBe('"cache", "storage"');
    const csrf = await httpGet(`${base}/api/auth/csrf`);
    if (isFailure(csrf)) throw new Error(csrf.error);
    const { csrfToken } = JSON.parse(csrf.body) as { csrfToken: string };
    const cookie = (csrf.headers["set-cookie"] ?? []).map((c) => c.split(";")[0]).join("; ");
    const signedOut = await post(
      `${base}/api/auth/signout`,
      { Origin: base, Cookie: cookie, "Content-Type": "application/x-www-form-urlencoded" },
      new URLSearchParams({ csrfToken, callbackUrl: "/sign-in", json: "true" }).toString(),
    );
    expect(signedOut.status).toBe(200);
    expect(signedOut.headers["clear-site-data"]).toBe('"cache", "storage"');
  });
});

test("40 revalidations answered 304 leave RateLimit-Remaining unchanged, each audited (Redis store)", async () => {
  test.skip(!DATABASE_URL, "needs the PostgreSQL test database (E2E_POSTGRES_URL, set by scripts/test.sh)");
  const probe = new Redis(REDIS_URL, { lazyConnect: true, maxRetriesPerRequest: 0 });
  probe.on("error", () => {});
  const up = await probe.connect().then(
    () => true,
    () => false,
  );
  probe.disconnect();
  if (!up && process.env.CI === "true") throw new Error(`Redis is required under CI (${REDIS_URL})`);
  test.skip(!up, `Redis not reachable at ${REDIS_URL}`);
  const port = appBase + 16;
  await start(port, { ...postgresEnv(), REDIS_URL, REDIS_KEY_PREFIX: REDIS_PREFIX });
  await expectFreeRevalidations(`http://127.0.0.1:${port}`);
});

/** One full read, then 40 conditional ones: all 304, the quota where the full read left it, 41 audit rows. */
async function expectFreeRevalidations(base: string): Promise<void> {
  const session = `edge-304-${randomUUID()}`;
  const headers = { Authorization: "Bearer demo", "X-Session-ID": session };
  const first = (await httpGet(`${base}/api/v1/players/${PLAYER}`, headers)) as HttpResult;
  expect(first.status).toBe(200);
  const before = first.headers["ratelimit-remaining"];
  expect(Number(before)).toBeGreaterThan(0);
  const etag = first.headers.etag as string;
  const answers: { status: number; remaining: unknown }[] = [];
  for (let i = 0; i < 40; i++) {
    const again = (await httpGet(`${base}/api/v1/players/${PLAYER}`, {
      ...headers,
      "If-None-Match": etag,
    })) as HttpResult;
    answers.push({ status: again.status, remaining: again.headers["ratelimit-remaining"] });
  }
  expect(answers).toEqual(Array(40).fill({ status: 304, remaining: before }));
  expect(await auditRowsOf(DATABASE_URL as string, session)).toHaveLength(41);
}

/** A POST over a fresh connection. */
function post(
  url: string,
  headers: Record<string, string>,
  body = "",
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.request(
      url,
      { method: "POST", headers: { Connection: "close", ...headers }, agent: false },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () =>
          resolve({
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
          }),
        );
        res.on("error", reject);
      },
    );
    req.on("error", reject);
    req.end(body);
  });
}
