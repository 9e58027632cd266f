import http from "node:http";
import type { AddressInfo, Socket } from "node:net";
import net from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { resetServerSettings } from "./request-gate.mjs";
import { installUpgradeGuard } from "./upgrade-guard.mjs";

/*
 * A server with an `upgrade` listener that, like Next.js's for a path it does not route, leaves the socket alone:
 * without the guard each Upgrade request stays open and unanswered.
 */
let server: http.Server;
let port: number;
const upgradesSeen: string[] = [];
const open = new Set<Socket>();

beforeAll(async () => {
  installUpgradeGuard();
  server = http.createServer((_request, response) => response.end("ok"));
  server.on("upgrade", (request: http.IncomingMessage, socket: Socket) => {
    upgradesSeen.push(request.url ?? "");
    open.add(socket);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  for (const socket of open) socket.destroy();
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
  resetServerSettings();
});

interface Exchange {
  answer: string;
  /** The server closed its side (FIN) before the client did. */
  closedByServer: boolean;
}

/** Sends an Upgrade request; resolves with what came back once the server closed, or after `waitMs` without it. */
function upgrade(path: string, waitMs = 20_000): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ answer, closedByServer: false });
    }, waitMs);
    socket.on("data", (chunk) => {
      answer += chunk.toString("latin1");
    });
    socket.on("end", () => {
      clearTimeout(timer);
      socket.end();
      resolve({ answer, closedByServer: true });
    });
    socket.on("error", () => {});
    socket.write(
      `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n` +
        "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
    );
  });
}

describe("installUpgradeGuard", () => {
  it("answers every Upgrade request 400 and closes its socket, on every path", {
    timeout: 60_000,
  }, async () => {
    const paths = [
      "/",
      "/players/P1",
      "/no/such/page",
      "/api/v1/players/P1",
      "/_next/hmr",
      "/_next/webpack-hmr",
    ];
    const exchanges = await Promise.all(
      Array.from({ length: 60 }, (_, i) => upgrade(paths[i % paths.length] as string)),
    );
    for (const { answer, closedByServer } of exchanges) {
      expect(closedByServer).toBe(true);
      expect(answer).toMatch(/^HTTP\/1\.1 400 Bad Request\r\n/);
      expect(answer).toContain("Content-Type: application/problem+json\r\n");
      expect(answer).toContain("Connection: close\r\n");
      expect(answer).toContain("X-Content-Type-Options: nosniff\r\n");
      const body = JSON.parse(answer.slice(answer.indexOf("\r\n\r\n") + 4));
      expect(body).toMatchObject({ status: 400, errors: [{ name: "Upgrade", in: "header" }] });
    }
    expect(upgradesSeen).toEqual([]);
    // Plain requests are served as before.
    const plain = await fetch(`http://127.0.0.1:${port}/`);
    expect(await plain.text()).toBe("ok");
  });

  it("passes Next.js's hot reloading socket through in development only", async () => {
    const env = process.env as Record<string, string | undefined>;
    const nodeEnv = env.NODE_ENV;
    env.NODE_ENV = "development";
    resetServerSettings();
    try {
      // Handed to the server's own listener (Next.js's hot reloader), which answers it; this one keeps it.
      const hmr = net.connect(port, "127.0.0.1");
      let answered = "";
      hmr.on("data", (chunk) => {
        answered += chunk.toString("latin1");
      });
      hmr.write(
        `GET /_next/hmr?id=abc HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
      );
      await expect.poll(() => upgradesSeen).toEqual(["/_next/hmr?id=abc"]);
      expect(answered).toBe("");
      hmr.destroy();
      const other = await upgrade("/");
      expect(other.closedByServer).toBe(true);
      expect(other.answer).toMatch(/^HTTP\/1\.1 400 /);
      expect(upgradesSeen).toHaveLength(1);
    } finally {
      env.NODE_ENV = nodeEnv;
    }
  });
});
