import { describeError, log } from "@/platform/log/log";
import { gzipChunks } from "./gzip-stream.ts";

export interface StreamInit {
  headers: Record<string, string>;
  requestId: string;
  route: string;
  /** Called once when the stream ends for any reason: finished, failed, cancelled or cut. */
  onDone?: () => void;
  /** Cut the stream when the client has taken nothing for this long (a reader that stopped reading). */
  idleTimeoutMs?: number;
  /**
   * Ends the transfer when it is cut, by closing the connection (Next.js would otherwise wait for the reader);
   * true when it did. Otherwise the body is errored, which ends the transfer if the client reads again.
   */
  onIdle?: () => boolean;
  /** Compress the body with gzip (gzip-stream.ts; the caller has checked `Accept-Encoding` and sets the headers). */
  gzip?: boolean;
}

/**
 * A streamed response body pulled from an async source: the next chunk is produced only when the client has
 * taken the previous one (backpressure), so memory stays constant for any size. A failure mid-stream cannot
 * change the status any more; it is logged and the connection is cut, so the client sees a truncated transfer
 * rather than a complete-looking file.
 *
 * A client that goes away (or stops reading for `idleTimeoutMs`) is routine, not a server fault: one info line,
 * and the source is closed at once, so its slot and any database work end with it.
 */
export function streamResponse(source: AsyncIterable<string>, init: StreamInit): Response {
  const encoder = new TextEncoder();
  const chunks: AsyncIterable<string | Uint8Array> = init.gzip ? gzipChunks(source) : source;
  const iterator = chunks[Symbol.asyncIterator]();
  const context = { requestId: init.requestId, route: init.route };
  let ended = false;
  let idleTimer: NodeJS.Timeout | undefined;
  let streamController: ReadableStreamDefaultController<Uint8Array> | undefined;
  const end = () => {
    clearTimeout(idleTimer);
    if (ended) return false;
    ended = true;
    init.onDone?.();
    return true;
  };
  const cutWhenIdle = () => {
    if (!init.idleTimeoutMs) return;
    idleTimer = setTimeout(() => {
      if (!end()) return;
      log.info("stream cut: the client took nothing", { ...context, idleTimeoutMs: init.idleTimeoutMs });
      void iterator.return?.(undefined);
      if (!init.onIdle?.()) streamController?.error(new Error("cut: the client took nothing"));
    }, init.idleTimeoutMs);
  };
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      streamController = controller;
    },
    async pull(controller) {
      clearTimeout(idleTimer);
      try {
        const next = await iterator.next();
        if (ended) return; // cancelled or cut while this batch was read: nobody takes it any more
        if (next.done) {
          end();
          controller.close();
          return;
        }
        const value = next.value;
        if (value.length > 0) controller.enqueue(typeof value === "string" ? encoder.encode(value) : value);
        cutWhenIdle();
      } catch (error) {
        if (!end()) return;
        log.error("stream failed", { ...context, ...describeError(error) });
        controller.error(error);
      }
    },
    async cancel() {
      if (end()) log.info("stream cancelled: the client went away", context);
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}
