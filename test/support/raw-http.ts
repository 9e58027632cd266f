import { connect } from "node:net";

/**
 * One exchange over a plain socket, for what HTTP clients will not send (TRACE, unparsable methods, bad encodings,
 * a body on a GET, chunks of a chosen size): writes `head`, then each part of `body` in turn until the server
 * starts its answer, and resolves with everything received until the server closes the connection. A reset after
 * the answer began (the server stopped reading a body it refused) is not an error.
 */
export function rawHttp(
  port: number,
  head: string,
  body: Iterable<string | Buffer> = [],
  host = "127.0.0.1",
): Promise<string> {
  return new Promise((resolve, reject) => {
    let received = "";
    const socket = connect({ host, port }, async () => {
      socket.write(head);
      for (const part of body) {
        // Let an answer in before each write: once the server closed, a write fails (EPIPE) and Node drops the
        // connection with the answer still unread.
        await new Promise(setImmediate);
        if (received || socket.destroyed) break;
        if (!socket.write(part)) {
          await new Promise((next) => {
            socket.once("drain", next);
            socket.once("close", next);
          });
        }
      }
    });
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", (error) => {
      if (!received) reject(error);
    });
    socket.on("close", () => resolve(received));
  });
}

export interface RawAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** The status, the headers (names in lower case) and the body of a raw answer. */
export function parseRawAnswer(text: string): RawAnswer {
  const at = text.indexOf("\r\n\r\n");
  const [statusLine = "", ...fields] = text.slice(0, at).split("\r\n");
  const headers = Object.fromEntries(
    fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body: text.slice(at + 4) };
}

/** One `method path` request (Connection: close) to `baseURL`, its answer split into status, headers and body. */
export async function rawRequest(baseURL: string, method: string, path: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseURL);
  const head = `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`;
  return parseRawAnswer(await rawHttp(Number(port), head, [], hostname));
}
