import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { MAX_ANSWER_BYTES, postWebhook } from "./post.ts";

/*
 * One attempt against a real HTTP receiver on loopback (node:http) that answers 200 and then streams a body far
 * larger than anyone should read, chunk by chunk as the socket drains: the attempt reads 64 KB and a chunk at
 * most, counts as delivered, and the receiver sees its answer cut off long before its end.
 */

const CHUNK = 16 * 1024;
/** The most one read of the client's socket hands over (a Node stream's 64 KB high-water mark). */
const SOCKET_READ = 64 * 1024;
const ANSWER = 256 * 1024 * 1024;

interface StreamingReceiver {
  url: string;
  /** Bytes the receiver handed to its socket, and whether the client went away before the end. */
  sent(): { bytes: number; cut: boolean; done: Promise<void> };
  close(): Promise<void>;
}

async function streamingReceiver(): Promise<StreamingReceiver> {
  let bytes = 0;
  let cut = false;
  let finish: () => void = () => {};
  const done = new Promise<void>((resolve) => {
    finish = resolve;
  });
  const server = http.createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": "application/octet-stream", "content-length": String(ANSWER) });
    const chunk = Buffer.alloc(CHUNK, 0x61);
    res.on("close", () => {
      cut = bytes < ANSWER;
      finish();
    });
    const pump = () => {
      while (bytes < ANSWER && !res.destroyed) {
        bytes += CHUNK;
        if (!res.write(chunk)) {
          res.once("drain", pump);
          return;
        }
      }
      if (bytes >= ANSWER) res.end();
    };
    pump();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    sent: () => ({ bytes, cut, done }),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

let receiver: StreamingReceiver | undefined;
afterEach(async () => {
  await receiver?.close();
  receiver = undefined;
});

describe("postWebhook", () => {
  it("reads at most 64 KB and one socket read of a receiver's answer, then cuts it off; the attempt is delivered", async () => {
    receiver = await streamingReceiver();
    const outcome = await postWebhook({
      url: receiver.url,
      secret: `whsec_${Buffer.from("k".repeat(32)).toString("base64")}`,
      eventId: "evt_big_answer",
      body: '{"id":"evt_big_answer"}',
      timeoutMs: 60_000,
    });
    expect(outcome).toMatchObject({ ok: true, statusCode: 200, error: null });
    expect(outcome.answerBytes).toBeGreaterThan(0);
    expect(outcome.answerBytes).toBeLessThanOrEqual(MAX_ANSWER_BYTES + SOCKET_READ);
    const sent = receiver.sent();
    await sent.done;
    // The receiver's socket closed with most of its answer never written (loopback buffers hold a few MB).
    expect(receiver.sent().cut).toBe(true);
    expect(receiver.sent().bytes).toBeLessThan(ANSWER / 4);
  });

  it("still reads a small answer to its end", async () => {
    const server = http.createServer((req, res) => {
      req.resume();
      res.writeHead(202, { "content-type": "text/plain" }).end("accepted");
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const { port } = server.address() as AddressInfo;
      const outcome = await postWebhook({
        url: `http://127.0.0.1:${port}/hook`,
        secret: `whsec_${Buffer.from("k".repeat(32)).toString("base64")}`,
        eventId: "evt_small_answer",
        body: "{}",
        timeoutMs: 10_000,
      });
      expect(outcome).toMatchObject({ ok: true, statusCode: 202, answerBytes: 8 });
    } finally {
      server.closeAllConnections();
      server.close();
    }
  });
});
