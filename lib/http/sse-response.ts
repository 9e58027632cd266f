import { log } from "@/lib/log";

/** What a source may do with its open stream. */
export interface SseEmitter {
  /** Writes one event (`event:` name, `data:` its JSON). */
  send(event: string, data: unknown): void;
  /** Ends the stream (the client reconnects as it decides). */
  close(): void;
}

/** Opens the stream's subscriptions; returns what undoes them, called once whatever ends the stream. */
export type SseSource = (emit: SseEmitter) => () => void;

export interface SseInit {
  requestId: string;
  route: string;
  /** The request's signal: it fires when the client goes away. */
  signal: AbortSignal;
  /** A comment line this often, so proxies and the client see the stream alive. Default 15 s. */
  heartbeatMs?: number;
  /** The stream ends after this long, with a `renew` event first. */
  maxLifetimeMs: number;
  /** The client's reconnection delay (`retry:`), ms. Default 2 s. */
  retryMs?: number;
  /**
   * Chunks the client may leave unread before the stream is cut: a reader that stopped reading must not make the
   * server buffer nudges forever. Default 256.
   */
  maxQueuedChunks?: number;
  /** Called once when the stream ends for any reason. */
  onDone?: () => void;
  /** Ends the transfer when it is cut (closes the connection: Next.js would otherwise wait for a stuck reader). */
  onCut?: () => void;
}

const g = globalThis as unknown as { parOpenEventStreams?: Set<() => void> };
const openStreams = () => {
  g.parOpenEventStreams ??= new Set();
  return g.parOpenEventStreams;
};

/** Event streams open in this process. */
export function openEventStreamCount(): number {
  return openStreams().size;
}

/** Ends every open event stream (on shutdown: Next.js waits for open responses before it exits). */
export function closeAllEventStreams(): void {
  for (const close of [...openStreams()]) close();
}

/**
 * A `text/event-stream` response. The source subscribes when the stream opens; everything it set up is undone
 * exactly once when the stream ends, whatever ends it: the client going away (`signal`, or the body cancelled),
 * the lifetime, a reader too far behind, the source closing it, or shutdown.
 */
export function sseResponse(source: SseSource, init: SseInit): Response {
  const encoder = new TextEncoder();
  const context = { requestId: init.requestId, route: init.route };
  const maxQueued = init.maxQueuedChunks ?? 256;
  let ended = false;
  let cleanup: (() => void) | undefined;
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  const timers: NodeJS.Timeout[] = [];

  const end = (how: "close" | "cut" | "cancelled") => {
    if (ended) return;
    ended = true;
    for (const timer of timers) clearTimeout(timer);
    init.signal.removeEventListener("abort", onAbort);
    openStreams().delete(closeFromOutside);
    cleanup?.();
    init.onDone?.();
    if (how === "close") {
      try {
        controller?.close();
      } catch {
        // already closed by the runtime
      }
    } else if (how === "cut") {
      log.info("event stream cut: the client is not reading", context);
      init.onCut?.();
      try {
        controller?.error(new Error("cut: the client is not reading"));
      } catch {
        // already errored
      }
    }
  };
  const write = (text: string) => {
    if (ended || !controller) return;
    if ((controller.desiredSize ?? 0) < -maxQueued) {
      end("cut");
      return;
    }
    controller.enqueue(encoder.encode(text));
  };
  const emitter: SseEmitter = {
    send: (event, data) => write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    close: () => end("close"),
  };
  const closeFromOutside = () => end("close");
  const onAbort = () => end("cancelled");

  const body = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
        if (init.signal.aborted) {
          end("cancelled");
          return;
        }
        init.signal.addEventListener("abort", onAbort, { once: true });
        openStreams().add(closeFromOutside);
        write(`retry: ${init.retryMs ?? 2_000}\n\n`);
        cleanup = source(emitter);
        if (ended) {
          cleanup(); // the source closed the stream while opening it
          return;
        }
        const heartbeat = setInterval(() => write(": keep-alive\n\n"), init.heartbeatMs ?? 15_000);
        heartbeat.unref();
        timers.push(heartbeat);
        const lifetime = setTimeout(() => {
          emitter.send("renew", { reason: "lifetime" });
          end("close");
        }, init.maxLifetimeMs);
        lifetime.unref();
        timers.push(lifetime);
      },
      cancel() {
        end("cancelled");
      },
    },
    new CountQueuingStrategy({ highWaterMark: 1 }),
  );
  return new Response(body, {
    status: 200,
    headers: {
      "Content-Type": "text/event-stream; charset=utf-8",
      // no-transform: a compressing proxy must not hold events back to fill its buffer.
      "Cache-Control": "no-store, no-transform",
      "X-Accel-Buffering": "no",
    },
  });
}
