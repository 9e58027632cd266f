import { constants, createGzip } from "node:zlib";
import { RESPONSE_HEADER, setResponseHeader } from "./request-stamp.mjs";

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

/** What an export answers with: whether to gzip, and its headers. */
export interface ExportEncoding {
  gzip: boolean;
  headers: Record<string, string>;
}

/**
 * The headers of a streamed export and whether to gzip it: `Content-Encoding: gzip` when the request accepts it,
 * identity otherwise, `Vary: Accept-Encoding` either way. `no-transform` keeps Next.js's own compression (and any
 * proxy's) off the body, so an identity answer stays identity and a gzip one is compressed once.
 * Next.js drops `Content-Encoding` from a route handler's Response, so under Next.js the header goes onto the
 * Node.js response through the request stamp (sendContentEncoding); a request the stamp did not see gets identity.
 */
export function exportEncoding(request: Request): ExportEncoding {
  const canLabel = request.headers.has(RESPONSE_HEADER) || process.env.NEXT_RUNTIME === undefined;
  const gzip = canLabel && acceptsGzip(request.headers.get("accept-encoding"));
  return {
    gzip,
    headers: {
      "Cache-Control": "no-store, no-transform",
      Vary: "Accept-Encoding",
      ...(gzip ? { "Content-Encoding": "gzip" } : {}),
    },
  };
}

/**
 * Puts `Content-Encoding: gzip` on the Node.js response when the export is gzipped (a no-op outside Next.js, where
 * the Response's own header is sent). Call it last, once nothing can turn the answer into an error any more: the
 * header would stay on a problem response.
 */
export function sendContentEncoding(request: Request, encoding: ExportEncoding): void {
  if (encoding.gzip) setResponseHeader(request.headers, "Content-Encoding", "gzip");
}
