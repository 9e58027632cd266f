import { connect } from "node:net";

/**
 * Writes `request` as it is over a plain socket and resolves with everything received until the server closes
 * the connection: for what HTTP clients refuse to send (TRACE, unparsable methods, bad encodings).
 */
export function rawExchange(host: string, port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port }, () => socket.write(request));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.on("error", reject);
    socket.on("close", () => resolve(received));
  });
}

export interface RawAnswer {
  status: number;
  /** Lower-case names. */
  headers: Record<string, string>;
  body: string;
}

/** One `method path` request (Connection: close) to `baseURL`, its answer split into status, headers and body. */
export async function rawRequest(baseURL: string, method: string, path: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(baseURL);
  const text = await rawExchange(
    hostname,
    Number(port),
    `${method} ${path} HTTP/1.1\r\nHost: ${hostname}:${port}\r\nConnection: close\r\n\r\n`,
  );
  const [head = "", body = ""] = text.split("\r\n\r\n", 2);
  const [statusLine = "", ...fields] = head.split("\r\n");
  const headers = Object.fromEntries(
    fields.map((f) => [f.slice(0, f.indexOf(":")).toLowerCase(), f.slice(f.indexOf(":") + 1).trim()]),
  );
  return { status: Number(statusLine.split(" ")[1]), headers, body };
}
