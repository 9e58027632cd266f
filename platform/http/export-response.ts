import { getEnv } from "@/platform/env/env";
import type { ApiContext } from "./api-context.ts";
import { acquireExportSlot } from "./export-gate.ts";
import { exportEncoding, sendContentEncoding, TOTAL_COUNT_HEADER } from "./gzip-stream.ts";
import { closeConnection } from "./request-stamp.mjs";
import { streamResponse } from "./stream-response.ts";

/** What an export has read and recorded before its first byte: its file's headers, its size, its lines. */
export interface ExportStart {
  contentType: string;
  contentDisposition: string;
  /** The rows (or lines) of the whole export, sent in X-Total-Count. */
  total: number;
  /** The body, asked for only when there is one (not for HEAD). */
  lines: () => AsyncIterable<string>;
}

/**
 * A streamed export's answer: it holds one of the caller's export slots (export-gate.ts) from before `begin` until
 * the stream ends, gzips when the request accepts it, answers HEAD with the headers alone, and cuts off a client
 * that stops reading. `begin` does every read and audit that can fail: nothing may fail after the gzip header is on
 * the response.
 */
export async function exportResponse(
  { request, url, requestId, caller }: Pick<ApiContext<unknown>, "request" | "url" | "requestId" | "caller">,
  begin: () => Promise<ExportStart>,
): Promise<Response> {
  const release = await acquireExportSlot(caller);
  let start: ExportStart;
  try {
    start = await begin();
  } catch (error) {
    release();
    throw error;
  }
  const encoding = exportEncoding(request);
  const headers = {
    ...encoding.headers,
    "Content-Type": start.contentType,
    "Content-Disposition": start.contentDisposition,
    [TOTAL_COUNT_HEADER]: String(start.total),
  };
  sendContentEncoding(request, encoding);
  if (request.method === "HEAD") {
    release();
    return new Response(null, { status: 200, headers });
  }
  return streamResponse(start.lines(), {
    requestId,
    route: url.pathname,
    onDone: release,
    idleTimeoutMs: getEnv().EXPORT_IDLE_TIMEOUT_MS,
    onIdle: () => closeConnection(request.headers),
    headers,
    gzip: encoding.gzip,
  });
}
