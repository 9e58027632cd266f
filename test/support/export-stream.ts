import { request as httpRequest } from "node:http";

/*
 * A consumer of a streamed export that stops part-way (reads N bytes, then drops the connection), and what it
 * keeps: the whole lines it received, ready to resume after the last one.
 */

/**
 * Reads a streamed body until `bytes` have arrived (or it ends), then cancels it: a dropped reader. Returns the
 * first `bytes` only, as a connection cut at that byte would have delivered them (mid-line, mid-chunk).
 */
export async function readThenDrop(response: Response, bytes: number): Promise<Uint8Array> {
  const reader = response.body?.getReader();
  if (!reader) return new Uint8Array();
  const parts: Uint8Array[] = [];
  let length = 0;
  while (length < bytes) {
    const { done, value } = await reader.read();
    if (done) break;
    parts.push(value);
    length += value.length;
  }
  await reader.cancel();
  return Buffer.concat(parts).subarray(0, bytes);
}

/**
 * Over HTTP: GET `url` and destroy the socket once at least `bytes` of the body have arrived (the raw bytes, as
 * sent: still gzip when the answer is). Resolves with the status, headers and those bytes.
 */
export function httpGetThenDrop(
  url: string,
  headers: Record<string, string>,
  bytes: number,
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { headers }, (res) => {
      const parts: Buffer[] = [];
      let length = 0;
      const done = () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) });
      res.on("data", (chunk: Buffer) => {
        parts.push(chunk);
        length += chunk.length;
        if (length >= bytes) {
          req.destroy();
          done();
        }
      });
      res.on("end", done);
    });
    req.on("error", (error) => {
      if (!req.destroyed) reject(error);
    });
    req.end();
  });
}

/** The whole lines of a cut transfer: `text` up to and including its last line end (`\n`; CSV's CRLF ends in it). */
export function wholeLines(text: string): string {
  return text.slice(0, text.lastIndexOf("\n") + 1);
}

/** The id to resume after: the `id` of the last NDJSON line, or of the last CSV row (column `id`, second). */
export function lastId(lines: string, format: "ndjson" | "csv"): string {
  const last = lines.trimEnd().split("\n").at(-1) ?? "";
  if (format === "ndjson") return (JSON.parse(last) as { id: string }).id;
  // The ids the tests resume after hold no comma or quote: the second cell as written, apostrophe removed.
  return (last.split(",")[1] ?? "").replace(/^'/, "");
}
