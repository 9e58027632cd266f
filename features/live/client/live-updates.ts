import { apiFetch } from "../../../platform/client/api-client.ts";
import { type SseEvent, SseParser } from "./sse-parser.ts";

/**
 * What the page says about its live updates: `connecting` (first attempt), `live` (nudges arrive),
 * `reconnecting` (the stream or the server's feed was lost; retrying), `paused` (no feed on this server, or
 * retries keep failing: the page works as without live updates and keeps trying now and then).
 */
export type LiveStatus = "connecting" | "live" | "reconnecting" | "paused";

export interface LiveUpdatesOptions {
  playerId: string;
  onStatus: (status: LiveStatus) => void;
  /** The player's data changed. */
  onChange: () => void;
  /**
   * Nudges may have been missed (the stream was down for a while, or the server's feed reconnected): read again
   * what the page shows.
   */
  onResync: () => void;
  /** Nothing at all (not even the 15 s keep-alive) for this long: the stream is stale. Default 45 s. */
  staleAfterMs?: number;
}

/** Failed attempts in a row after which the page says its updates are paused (it keeps retrying, slower). */
const PAUSE_AFTER_FAILURES = 4;
const MAX_BACKOFF_MS = 30_000;
const DEFAULT_RETRY_AFTER_MS = 60_000;

/** Where each stream attempt ended, and what to do next. */
type Ending =
  | { kind: "renew" } // the server ended it by design: reopen at once
  | { kind: "lost" } // cut, stale or failed: back off
  | { kind: "refused"; retryAfterMs: number }; // no feed on this server, or a cap: wait as told

/**
 * Follows one player's changes over the API's event stream for as long as the page shows the player, reconnecting
 * as needed; returns the function that stops it. Reads the stream with fetch (the bearer token and session id go
 * in headers, which EventSource cannot send).
 */
export function followPlayerChanges(options: LiveUpdatesOptions): () => void {
  const run = new LiveRun(options);
  void run.loop();
  return () => run.stop();
}

class LiveRun {
  private stopped = false;
  private current: AbortController | null = null;
  private wake: (() => void) | null = null;
  private status: LiveStatus | null = null;
  /** True once a stream was live: the next live stream must resync what it may have missed. */
  private hadLive = false;
  private gap = false;
  /** The current stream's server said its feed became unavailable. */
  private feedUnavailable = false;

  constructor(private readonly o: LiveUpdatesOptions) {}

  async loop(): Promise<void> {
    let failures = 0;
    this.setStatus("connecting");
    while (!this.stopped) {
      const ending = await this.attempt();
      if (this.stopped) return;
      if (this.hadLive) this.gap = true;
      if (ending.kind === "renew") {
        failures = 0;
        continue;
      }
      if (ending.kind === "refused") {
        this.setStatus("paused");
        await this.sleep(ending.retryAfterMs);
        continue;
      }
      failures += 1;
      this.setStatus(failures >= PAUSE_AFTER_FAILURES ? "paused" : "reconnecting");
      await this.sleep(backoffMs(failures));
    }
  }

  stop(): void {
    this.stopped = true;
    this.current?.abort();
    this.wake?.();
  }

  private async attempt(): Promise<Ending> {
    const controller = new AbortController();
    this.current = controller;
    try {
      const response = await apiFetch(`/api/v1/players/${encodeURIComponent(this.o.playerId)}/events`, {
        headers: { Accept: "text/event-stream" },
        signal: controller.signal,
      });
      if (!response.ok || !response.body) {
        await response.body?.cancel().catch(() => {});
        // 503 (no feed here, or the server's stream cap) and 429 (this user's cap) say when to try again.
        if (response.status === 503 || response.status === 429) {
          return { kind: "refused", retryAfterMs: retryAfterMs(response) };
        }
        // Another 4xx (no such player, no access) will not change soon: try again much later.
        if (response.status >= 400 && response.status < 500)
          return { kind: "refused", retryAfterMs: 600_000 };
        return { kind: "lost" };
      }
      return await this.read(response.body, controller);
    } catch {
      return { kind: "lost" };
    } finally {
      controller.abort();
      this.current = null;
    }
  }

  /** Reads one stream to its end; a stream silent for too long is dropped as stale. */
  private async read(body: ReadableStream<Uint8Array>, controller: AbortController): Promise<Ending> {
    const reader = body.getReader();
    const decoder = new TextDecoder();
    const parser = new SseParser();
    const staleAfter = this.o.staleAfterMs ?? 45_000;
    let stale: ReturnType<typeof setTimeout> | undefined;
    const armStale = () => {
      clearTimeout(stale);
      stale = setTimeout(() => controller.abort(), staleAfter);
    };
    let renewed = false;
    this.feedUnavailable = false;
    try {
      armStale();
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        armStale();
        for (const event of parser.push(decoder.decode(value, { stream: true }))) {
          if (event.event === "renew") renewed = true;
          else this.handle(event);
        }
      }
    } finally {
      clearTimeout(stale);
      reader.cancel().catch(() => {});
    }
    if (renewed) return { kind: "renew" };
    // The server said its feed is gone before ending the stream: paused, not reconnecting.
    if (this.feedUnavailable) return { kind: "refused", retryAfterMs: DEFAULT_RETRY_AFTER_MS };
    return { kind: "lost" };
  }

  private handle(event: SseEvent): void {
    if (event.event === "change") {
      this.o.onChange();
      return;
    }
    if (event.event !== "feed") return;
    const state = readFeedState(event.data);
    if (state === "live") {
      this.setStatus("live");
      if (this.gap) this.o.onResync();
      this.hadLive = true;
      this.gap = false;
    } else if (state === "connecting") {
      // The server's own connection to the database is back to connecting: nudges may be missed meanwhile.
      this.setStatus(this.hadLive ? "reconnecting" : "connecting");
      if (this.hadLive) this.gap = true;
    } else if (state === "unavailable") {
      this.feedUnavailable = true;
      this.setStatus("paused");
    }
  }

  private setStatus(status: LiveStatus): void {
    if (status === this.status || this.stopped) return;
    this.status = status;
    this.o.onStatus(status);
  }

  private sleep(ms: number): Promise<void> {
    return new Promise((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        resolve();
      }
      this.wake = done;
    });
  }
}

/** The `state` of a `feed` event's JSON, or null when it is not one. */
export function readFeedState(data: string): string | null {
  try {
    const value = JSON.parse(data) as { state?: unknown };
    return typeof value?.state === "string" ? value.state : null;
  } catch {
    return null;
  }
}

/** 1 s, 2 s, 4 s … up to 30 s, with jitter so that pages of a restarted server do not all come back at once. */
export function backoffMs(failures: number, random: () => number = Math.random): number {
  const base = Math.min(MAX_BACKOFF_MS, 1_000 * 2 ** Math.max(0, failures - 1));
  return Math.round(base / 2 + random() * (base / 2));
}

function retryAfterMs(response: Response): number {
  const seconds = Number(response.headers.get("retry-after"));
  return Number.isFinite(seconds) && seconds > 0 ? Math.min(seconds, 600) * 1_000 : DEFAULT_RETRY_AFTER_MS;
}
