import { constants, createGzip } from "node:zlib";

/**
 * Whether a request's `Accept-Encoding` takes gzip (RFC 9110 §12.5.3): `gzip` or `x-gzip` with a non-zero
 * weight, or `*` with one when gzip is not named. No header, `identity`, or `gzip;q=0`: false.
 */
export function acceptsGzip(header: string | null): boolean {
  if (!header) return false;
  let star: boolean | undefined;
  for (const part of header.split(",")) {
    const [name = "", ...params] = part.split(";").map((s) => s.trim().toLowerCase());
    const q = params.find((p) => p.startsWith("q="));
    const weight = q === undefined ? 1 : Number(q.slice(2));
    const accepted = Number.isFinite(weight) && weight > 0;
    if (name === "gzip" || name === "x-gzip") return accepted;
    if (name === "*") star = accepted;
  }
  return star ?? false;
}

/**
 * A text source gzip-compressed chunk by chunk, each chunk flushed (Z_SYNC_FLUSH): every line the client has
 * received decompresses at once, so a consumer cut off mid-transfer still reads each line it was sent whole and
 * can resume after the last one. The flushes cost little at the export's batch sizes (≥ 200 rows a chunk).
 * Closing the generator (the client went away) closes the source and the compressor.
 */
export async function* gzipChunks(source: AsyncIterable<string>): AsyncGenerator<Uint8Array> {
  const gzip = createGzip();
  const out: Buffer[] = [];
  gzip.on("data", (chunk: Buffer) => out.push(chunk));
  const take = () => Buffer.concat(out.splice(0));
  try {
    for await (const text of source) {
      if (!text) continue;
      gzip.write(text);
      await new Promise<void>((resolve) => gzip.flush(constants.Z_SYNC_FLUSH, () => resolve()));
      yield take();
    }
    await new Promise<void>((resolve, reject) => {
      gzip.once("end", resolve);
      gzip.once("error", reject);
      gzip.end();
    });
    yield take();
  } finally {
    gzip.close();
  }
}

/** The total-rows header of the exports: the rows of the whole export (its filters), counted as it begins. */
export const TOTAL_COUNT_HEADER = "X-Total-Count";

/**
 * The headers of a streamed export and whether to gzip it: `Content-Encoding: gzip` when the request accepts it,
 * identity otherwise, `Vary: Accept-Encoding` either way. `no-transform` keeps Next.js's own compression (and any
 * proxy's) off the body, so an identity answer stays identity and a gzip one is compressed once.
 */
export function exportEncoding(request: Request): { gzip: boolean; headers: Record<string, string> } {
  const gzip = acceptsGzip(request.headers.get("accept-encoding"));
  return {
    gzip,
    headers: {
      "Cache-Control": "no-store, no-transform",
      Vary: "Accept-Encoding",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    },
  };
}
