import { log } from "@/platform/log/log";

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
  const stream = new EventStream(source, init);
  const body = new ReadableStream<Uint8Array>(
    {
      start: (c) => stream.start(c),
      cancel: () => stream.end("cancelled"),
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

/** One open stream's state: its controller, the source's cleanup, its timers; ended at most once. */
class EventStream {
  private readonly encoder = new TextEncoder();
  private readonly source: SseSource;
  private readonly init: SseInit;
  private readonly context: { requestId: string; route: string };
  private readonly maxQueued: number;
  private ended = false;
  private cleanup: (() => void) | undefined;
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly emitter: SseEmitter = {
    send: (event, data) => this.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`),
    close: () => this.end("close"),
  };
  private readonly closeFromOutside = () => this.end("close");
  private readonly onAbort = () => this.end("cancelled");

  constructor(source: SseSource, init: SseInit) {
    this.source = source;
    this.init = init;
    this.context = { requestId: init.requestId, route: init.route };
    this.maxQueued = init.maxQueuedChunks ?? 256;
  }

  /** The body starts: listen for the client going away, subscribe the source, start the timers. */
  start(c: ReadableStreamDefaultController<Uint8Array>) {
    const { init } = this;
    this.controller = c;
    if (init.signal.aborted) {
      this.end("cancelled");
      return;
    }
    init.signal.addEventListener("abort", this.onAbort, { once: true });
    openStreams().add(this.closeFromOutside);
    this.write(`retry: ${init.retryMs ?? 2_000}\n\n`);
    const cleanup = this.source(this.emitter);
    this.cleanup = cleanup;
    if (this.ended) {
      cleanup(); // the source closed the stream while opening it
      return;
    }
    this.startTimers();
  }

  /** The heartbeat comment and the lifetime (a `renew` event, then the end). */
  private startTimers() {
    const heartbeat = setInterval(() => this.write(": keep-alive\n\n"), this.init.heartbeatMs ?? 15_000);
    heartbeat.unref();
    this.timers.push(heartbeat);
    const lifetime = setTimeout(() => {
      this.emitter.send("renew", { reason: "lifetime" });
      this.end("close");
    }, this.init.maxLifetimeMs);
    lifetime.unref();
    this.timers.push(lifetime);
  }

  /** Writes a chunk, or cuts the stream when the client has left too many unread. */
  private write(text: string) {
    if (this.ended || !this.controller) return;
    if ((this.controller.desiredSize ?? 0) < -this.maxQueued) {
      this.end("cut");
      return;
    }
    this.controller.enqueue(this.encoder.encode(text));
  }

  /** Undoes everything once, then closes the body (`close`), errors it (`cut`), or leaves it (`cancelled`). */
  end(how: "close" | "cut" | "cancelled") {
    if (this.ended) return;
    this.ended = true;
    for (const timer of this.timers) clearTimeout(timer);
    this.init.signal.removeEventListener("abort", this.onAbort);
    openStreams().delete(this.closeFromOutside);
    this.cleanup?.();
    this.init.onDone?.();
    if (how === "close") {
      try {
        this.controller?.close();
      } catch {
        // already closed by the runtime
      }
    } else if (how === "cut") {
      log.info("event stream cut: the client is not reading", this.context);
      this.init.onCut?.();
      try {
        this.controller?.error(new Error("cut: the client is not reading"));
      } catch {
        // already errored
      }
    }
  }
}
