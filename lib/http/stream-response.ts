import { describeError, log } from "@/lib/log";

/**
 * A streamed response body pulled from an async source: the next chunk is produced only when the client has
 * taken the previous one (backpressure), so memory stays constant for any size. A failure mid-stream cannot
 * change the status any more; it is logged and the connection is cut, so the client sees a truncated transfer
 * rather than a complete-looking file.
 */
export function streamResponse(
  source: AsyncIterable<string>,
  init: { headers: Record<string, string>; requestId: string; route: string },
): Response {
  const encoder = new TextEncoder();
  const iterator = source[Symbol.asyncIterator]();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      try {
        const { value, done } = await iterator.next();
        if (done) controller.close();
        else if (value) controller.enqueue(encoder.encode(value));
      } catch (error) {
        log.error("stream failed", { requestId: init.requestId, route: init.route, ...describeError(error) });
        controller.error(error);
      }
    },
    async cancel() {
      await iterator.return?.(undefined);
    },
  });
  return new Response(body, { status: 200, headers: { "Cache-Control": "no-store", ...init.headers } });
}
