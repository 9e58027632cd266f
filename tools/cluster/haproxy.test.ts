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
    // The rest is the repository's file as it is.
    expect(rendered).toContain("retry-on conn-failure empty-response");
    expect(() => renderHaproxyConfig("backend app\n", serversFor("127.0.0.1", [1]))).toThrow(/BEGIN servers/);
  });
});

/*
 * HAProxy itself (Debian's 2.6) on the repository's config, in front of two stand-ins for the app that pass the
 * health check and then drop every other request without an answer (as a killed instance does): a read is sent
 * again to the other instance, a POST never is. Skipped when haproxy is not installed (required under CI).
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
  let haproxy: HaproxyProcess | undefined;
  let stateDir = "";
  let port = 0;

  beforeAll(async () => {
    stateDir = mkdtempSync(path.join(tmpdir(), "par-haproxy-test-"));
    const ports: number[] = [];
    for (let i = 0; i < 2; i++) {
      const backend = http.createServer((req, res) => {
        if (req.url === "/api/health") return res.end("{}");
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
    writeFileSync(file, renderHaproxyConfig(readHaproxyTemplate(), serversFor("127.0.0.1", ports)));
    const env = haproxyEnv({ bind: `127.0.0.1:${port}`, proxySource: "127.0.0.2", stateDir });
    expect(checkHaproxyConfig(binary ?? "", file, env)).toBeNull();
    haproxy = spawnHaproxy(binary ?? "", file, env);
    await waitForServers(adminSocketPath(stateDir), ["app1", "app2"], "UP", 20_000);
  }, 30_000);

  afterAll(async () => {
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
});
