import { describeError, log } from "@/lib/log";

/**
 * A streamed response body pulled from an async source: the next chunk is produced only when the client has
 * taken the previous one (backpressure), so memory stays constant for any size. A failure mid-stream cannot
 * change the status any more; it is logged and the connection is cut, so the client sees a truncated transfer
 * rather than a complete-looking file.
 */
export function streamResponse(
  source: AsyncIterable<string>,
  init: { headers: Record<string, string>; requestId: string; route: string; onDone?: () => void },
): Response {
  const encoder = new TextEncoder();
  const done = () => init.onDone?.();
  const iterator = source[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const next = await iterator.next();
        if (next.done) {
          done();
          controller.close();
        } else if (next.value) controller.enqueue(encoder.encode(next.value));
      } catch (error) {
        done();
        log.error("stream failed", { requestId: init.requestId, route: init.route, ...describeError(error) });
        controller.error(error);
      }
    },
    async cancel() {
      done();
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}
