import { afterEach, describe, expect, it, vi } from "vitest";
import { closeAllEventStreams, openEventStreamCount, type SseEmitter, sseResponse } from "./sse-response.ts";

afterEach(() => {
  vi.useRealTimers();
  closeAllEventStreams();
});

function open(options: { maxLifetimeMs?: number; maxQueuedChunks?: number; heartbeatMs?: number } = {}) {
  const controller = new AbortController();
  const calls = { cleanup: 0, done: 0, cut: 0 };
  let emitter: SseEmitter | undefined;
  const response = sseResponse(
    (emit) => {
      emitter = emit;
      emit.send("feed", { state: "live" });
      return () => {
        calls.cleanup += 1;
      };
    },
    {
      requestId: "r1",
      route: "/test",
      signal: controller.signal,
      maxLifetimeMs: options.maxLifetimeMs ?? 60_000,
      heartbeatMs: options.heartbeatMs ?? 15_000,
      maxQueuedChunks: options.maxQueuedChunks ?? 256,
      onDone: () => {
        calls.done += 1;
      },
      onCut: () => {
        calls.cut += 1;
      },
    },
  );
  return { response, controller, calls, emit: () => emitter as SseEmitter };
}

async function readAll(response: Response): Promise<string> {
  return await response.text();
}

describe("sseResponse", () => {
  it("writes retry, the source's events and heartbeats, then renew and the end at its lifetime", async () => {
    vi.useFakeTimers();
    const s = open({ maxLifetimeMs: 40_000 });
    expect(s.response.headers.get("content-type")).toBe("text/event-stream; charset=utf-8");
    expect(s.response.headers.get("cache-control")).toBe("no-store, no-transform");
    const text = readAll(s.response);
    await vi.advanceTimersByTimeAsync(40_000);
    expect(await text).toBe(
      'retry: 2000\n\nevent: feed\ndata: {"state":"live"}\n\n: keep-alive\n\n: keep-alive\n\nevent: renew\ndata: {"reason":"lifetime"}\n\n',
    );
    expect(s.calls).toEqual({ cleanup: 1, done: 1, cut: 0 });
    expect(openEventStreamCount()).toBe(0);
  });

  it("undoes the source once when the client goes away, whatever else happens after", async () => {
    const s = open();
    expect(openEventStreamCount()).toBe(1);
    s.controller.abort();
    await s.response.body?.cancel();
    s.emit().send("change", {});
    s.emit().close();
    closeAllEventStreams();
    expect(s.calls).toEqual({ cleanup: 1, done: 1, cut: 0 });
    expect(openEventStreamCount()).toBe(0);
  });

  it("ends every open stream on shutdown", async () => {
    const a = open();
    const b = open();
    expect(openEventStreamCount()).toBe(2);
    closeAllEventStreams();
    expect(await readAll(a.response)).toContain("event: feed");
    expect(await readAll(b.response)).toContain("event: feed");
    expect(a.calls.cleanup + b.calls.cleanup).toBe(2);
    expect(openEventStreamCount()).toBe(0);
  });

  it("cuts a client that stopped reading instead of queueing nudges for it", () => {
    const s = open({ maxQueuedChunks: 10 });
    for (let i = 0; i < 50; i++) s.emit().send("change", { player_id: "P1" });
    expect(s.calls).toEqual({ cleanup: 1, done: 1, cut: 1 });
    expect(openEventStreamCount()).toBe(0);
  });

  it("opens nothing for a request already aborted", () => {
    const controller = new AbortController();
    controller.abort();
    let opened = false;
    sseResponse(
      () => {
        opened = true;
        return () => {};
      },
      { requestId: "r", route: "/t", signal: controller.signal, maxLifetimeMs: 1_000 },
    );
    expect(opened).toBe(false);
    expect(openEventStreamCount()).toBe(0);
  });
});
