import { createHmac, timingSafeEqual } from "node:crypto";
import http from "node:http";

/*
 * What the webhook tests receive with: a real HTTP server on loopback (node:http) that records every request, and
 * the verification recipe of docs/webhooks.md, written here as a receiver would write it (independent of
 * workers/webhooks/signature.ts, which signs).
 */

/** docs/webhooks.md's recipe: Standard Webhooks, HMAC-SHA256, five minutes' tolerance. */
export function verifyWebhook(
  secret: string,
  headers: Record<string, string | string[] | undefined>,
  body: string,
  nowSeconds = Math.floor(Date.now() / 1000),
): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (typeof id !== "string" || typeof timestamp !== "string" || typeof signatures !== "string") return false;
  if (!/^\d+$/.test(timestamp) || Math.abs(nowSeconds - Number(timestamp)) > 300) return false;
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const expected = Buffer.from(
    createHmac("sha256", key).update(`${id}.${timestamp}.${body}`).digest("base64"),
  );
  return signatures.split(" ").some((entry) => {
    const [version, signature = ""] = entry.split(",");
    const given = Buffer.from(signature);
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

export interface ReceivedRequest {
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The status this receiver answered (0 when it hung up without answering). */
  answered: number;
}

/** How the receiver answers the nth request (0-based): a status, or "hang" (never answers). */
export type Respond = (index: number, request: ReceivedRequest) => number | "hang";

export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respond: Respond;
  listen(): Promise<void>;
  close(): Promise<void>;
}

export function createReceiver(port: number, respond: Respond = () => 200): Receiver {
  const sockets = new Set<import("node:net").Socket>();
  const receiver: Receiver = {
    url: `http://127.0.0.1:${port}/hooks/risk`,
    requests: [],
    respond,
    listen: () =>
      new Promise((resolve, reject) => server.listen(port, "127.0.0.1", resolve).once("error", reject)),
    close: () =>
      new Promise((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const request: ReceivedRequest = {
        headers: req.headers,
        body: Buffer.concat(chunks).toString(),
        answered: 0,
      };
      const answer = receiver.respond(receiver.requests.length, request);
      receiver.requests.push(request);
      if (answer === "hang") return;
      request.answered = answer;
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : "no");
    });
  });
  server.on("connection", (s) => {
    sockets.add(s);
    s.on("close", () => sockets.delete(s));
  });
  return receiver;
}

/** Polls until `done()` holds (or the time is up, then throws with `what`). */
export async function waitFor(done: () => boolean | Promise<boolean>, what: string, timeoutMs = 20_000) {
  const until = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
