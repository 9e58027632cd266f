import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  adminSocketPath,
  checkHaproxyConfig,
  findHaproxy,
  type HaproxyProcess,
  haproxyEnv,
  readHaproxyTemplate,
  renderHaproxyConfig,
  serversFor,
  socketServersFor,
  spawnHaproxy,
  waitForServers,
} from "./haproxy.ts";

describe("the HAProxy config", () => {
  it("gets one server line per instance between its markers", () => {
    const rendered = renderHaproxyConfig(readHaproxyTemplate(), serversFor("127.0.0.1", [4001, 4002, 4003]));
    const servers = rendered.split("\n").filter((l) => /^\s*server /.test(l));
    expect(servers.map((l) => l.trim())).toEqual([
      "server app1 127.0.0.1:4001",
      "server app2 127.0.0.1:4002",
      "server app3 127.0.0.1:4003",
    ]);
    // cluster:up's: each instance's Unix socket.
    const sockets = renderHaproxyConfig(readHaproxyTemplate(), socketServersFor("/run/par/sockets", 2));
    expect(
      sockets
        .split("\n")
        .filter((l) => /^\s*server /.test(l))
        .map((l) => l.trim()),
    ).toEqual(["server app1 unix@/run/par/sockets/app1.sock", "server app2 unix@/run/par/sockets/app2.sock"]);
    // The rest is the repository's file as it is.
    expect(rendered).toContain("retry-on conn-failure empty-response");
    expect(() => renderHaproxyConfig("backend app\n", serversFor("127.0.0.1", [1]))).toThrow(/BEGIN servers/);
  });
});

/*
 * HAProxy itself (Debian's 2.6) on the repository's config, in front of two stand-ins for the app that pass the
 * health check and then drop every other request without an answer (as a killed instance does): a read is sent
 * again to the other instance, a POST never is. Asked to (X-Stand-In), they answer at once, or hold the request
 * unanswered (as an instance holds an Upgrade request). Skipped when haproxy is not installed (required under CI).
 */
const binary = findHaproxy();
if (!binary && process.env.CI === "true")
  throw new Error("haproxy is required under CI (.ci/run installs it)");

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

describe.skipIf(!binary)("HAProxy on the repository's config", () => {
  const attempts: { method: string; forwardedFor: string | undefined; peer: string | undefined }[] = [];
  const backends: http.Server[] = [];
  /** Requests the stand-ins hold unanswered. */
  const held: http.IncomingMessage[] = [];
  let haproxy: HaproxyProcess | undefined;
  let stateDir = "";
  let port = 0;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), "par-haproxy-test-"));
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const backend = http.createServer((req, res) => {
        if (req.url === "/api/health") return res.end("{}");
        if (req.headers["x-stand-in"] === "answer") return res.end("{}");
        if (req.headers["x-stand-in"] === "hold") {
          held.push(req);
          return;
        }
        attempts.push({
          method: req.method ?? "",
          forwardedFor: req.headers["x-forwarded-for"] as string | undefined,
          peer: req.socket.remoteAddress,
        });
        req.socket.destroy();
      });
      await new Promise<void>((resolve) => backend.listen(0, "127.0.0.1", resolve));
      backends.push(backend);
      ports.push((backend.address() as net.AddressInfo).port);
    }
    port = await freePort();
    const file = path.join(stateDir, "haproxy.cfg");
    // The repository's config, and one probe: the server timeout HAProxy applied to each answer.
    const config = renderHaproxyConfig(readHaproxyTemplate(), serversFor("127.0.0.1", ports)).replace(
      /^backend app$/m,
      "backend app\n    http-response set-header X-Server-Timeout %[cur_server_timeout]",
    );
    expect(config).toContain("X-Server-Timeout");
    writeFileSync(file, config);
    const env = haproxyEnv({ bind: `127.0.0.1:${port}`, proxySource: "127.0.0.2", stateDir });
    expect(checkHaproxyConfig(binary ?? "", file, env)).toBeNull();
    haproxy = spawnHaproxy(binary ?? "", file, env);
    await waitForServers(adminSocketPath(stateDir), ["app1", "app2"], "UP", 20_000);
  }, 30_000);

  afterAll(async () => {
    for (const req of held) req.socket.destroy();
    await haproxy?.stop();
    await Promise.all(backends.map((b) => new Promise((resolve) => b.close(resolve))));
    rmSync(stateDir, { recursive: true, force: true });
  });

  /** The answer's status, or the client's socket error (HAProxy may close a POST's connection without one). */
  const send = (method: string) =>
    new Promise<number | string>((resolve) => {
      const req = http.request(
        {
          host: "127.0.0.1",
          port,
          method,
          path: "/api/v1/players/P1",
          headers: { "X-Forwarded-For": "6.6.6.6" },
        },
        (res) => {
          res.resume();
          res.on("end", () => resolve(res.statusCode ?? 0));
        },
      );
      req.on("error", (e: NodeJS.ErrnoException) => resolve(e.code ?? e.message));
      req.end(method === "POST" ? "x=1" : undefined);
    });

  it("sends a GET that got no answer again, to the other instance too, up to `retries 3`", async () => {
    attempts.length = 0;
    expect(await send("GET")).toBe(502);
    expect(attempts.map((a) => a.method)).toEqual(["GET", "GET", "GET", "GET"]);
  });

  it("sends a POST once: only reads are retried", async () => {
    attempts.length = 0;
    expect(await send("POST")).not.toBe(200);
    expect(attempts.map((a) => a.method)).toEqual(["POST"]);
  });

  it("connects from CLUSTER_PROXY_SOURCE and forwards only the address it saw", () => {
    expect(attempts.length).toBeGreaterThan(0);
    for (const a of attempts) expect(a).toMatchObject({ peer: "127.0.0.2", forwardedFor: "127.0.0.1" });
  });
  /** A raw request over its own connection; resolves with the socket and the answer's first bytes as they come. */
  function rawRequest(head: string) {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      answer += chunk;
    });
    socket.on("error", () => {});
    socket.write(head);
    return { socket, answer: () => answer };
  }

  it("refuses an Upgrade request itself: it never reaches an instance", async () => {
    attempts.length = 0;
    const heldBefore = held.length;
    const upgrade = rawRequest(
      "GET /api/v1/players/P1 HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\nX-Stand-In: hold\r\n\r\n",
    );
    await expect.poll(upgrade.answer, { timeout: 10_000 }).toMatch(/\r\n\r\n\{.*\}$/s);
    upgrade.socket.destroy();
    expect(upgrade.answer()).toMatch(/^HTTP\/1\.1 400 /);
    expect(upgrade.answer()).toMatch(/content-type: application\/problem\+json/i);
    expect(JSON.parse(upgrade.answer().split("\r\n\r\n")[1] ?? "")).toMatchObject({ status: 400 });
    expect({ attempts: attempts.length, held: held.length - heldBefore }).toEqual({ attempts: 0, held: 0 });
  }, 30_000);

  it("gives up a request whose client closed its connection (abortonclose): the instance's slot is freed", async () => {
    const heldBefore = held.length;
    const client = rawRequest(
      "GET /api/v1/players/P1 HTTP/1.1\r\nHost: localhost\r\nX-Stand-In: hold\r\n\r\n",
    );
    await expect.poll(() => held.length, { timeout: 10_000 }).toBe(heldBefore + 1);
    const request = held[heldBefore];
    const closed = new Promise<void>((resolve) => request?.socket.once("close", () => resolve()));
    client.socket.destroy();
    // HAProxy closes its connection to the instance: without abortonclose it would wait for the answer up to
    // `timeout server`, the slot taken all that time.
    await expect(
      Promise.race([
        closed.then(() => "closed"),
        new Promise((r) => setTimeout(() => r("still open"), 15_000)),
      ]),
    ).resolves.toBe("closed");
  }, 30_000);

  it("keeps the server timeout short, and long only for the exports and the live-events streams", async () => {
    const timeoutOf = (url: string) =>
      new Promise<string | undefined>((resolve, reject) => {
        http
          .get({ host: "127.0.0.1", port, path: url, headers: { "X-Stand-In": "answer" } }, (res) => {
            res.resume();
            res.on("end", () => resolve(res.headers["x-server-timeout"] as string | undefined));
          })
          .on("error", reject);
      });
    const paths = [
      "/api/v1/players/P1",
      "/api/v1/players/P1/transactions?limit=20",
      "/api/health",
      "/api/v1/players/P1/transactions/export?format=csv",
      "/api/v1/exports/players?format=ndjson",
      "/api/v1/players/P1/events",
    ];
    const applied: Record<string, string | undefined> = {};
    for (const p of paths) applied[p] = await timeoutOf(p);
    expect(applied).toEqual({
      "/api/v1/players/P1": "30000",
      "/api/v1/players/P1/transactions?limit=20": "30000",
      "/api/health": "30000",
      "/api/v1/players/P1/transactions/export?format=csv": "600000",
      "/api/v1/exports/players?format=ndjson": "600000",
      "/api/v1/players/P1/events": "600000",
    });
  }, 30_000);
});
