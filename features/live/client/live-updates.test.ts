import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { clearApiCredentials } from "../../../platform/client/api-client.ts";
import { followPlayerChanges, type LiveStatus } from "./live-updates.ts";

/*
 * The page's side of live updates against a scripted server: each call of the events route takes the next
 * answer from `answers` (a status, or a stream the test writes to). The real server is exercised in
 * features/live/data/player-change-feed.int.test.ts and e2e/ui/live-updates.spec.ts; this pins the state machine.
 */

type Answer =
  | { status: number; retryAfter?: string }
  | { stream: ReadableStreamDefaultController<Uint8Array> };
let answers: Array<() => Answer>;
let eventCalls: number;
const encoder = new TextEncoder();

beforeEach(() => {
  answers = [];
  eventCalls = 0;
  clearApiCredentials();
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string) => {
      if (url === "/api/session/token") {
        return Response.json({ access_token: "t", session_id: "s", expires_at: Date.now() / 1000 + 300 });
      }
      eventCalls += 1;
      const next = answers.shift();
      if (!next) return new Promise<Response>(() => {}); // no more scripted answers: hang
      const answer = next();
      if ("status" in answer) {
        return new Response(null, {
          status: answer.status,
          headers: answer.retryAfter ? { "Retry-After": answer.retryAfter } : {},
        });
      }
      return new Response(
        new ReadableStream<Uint8Array>({
          start: (c) => {
            Object.assign(answer, { stream: c });
          },
        }),
        { status: 200, headers: { "Content-Type": "text/event-stream" } },
      );
    }),
  );
});
afterEach(() => {
  vi.unstubAllGlobals();
});

/** A stream answer the test writes events to and ends. */
function scriptedStream() {
  let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  answers.push(() => {
    const answer = { stream: undefined as unknown as ReadableStreamDefaultController<Uint8Array> };
    queueMicrotask(() => {
      controller = answer.stream;
    });
    return answer;
  });
  const ready = () => vi.waitFor(() => expect(controller).toBeDefined());
  return {
    async send(event: string, data: unknown) {
      await ready();
      controller?.enqueue(encoder.encode(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`));
    },
    async end() {
      await ready();
      controller?.close();
    },
  };
}

function follow() {
  const statuses: LiveStatus[] = [];
  const calls = { change: 0, resync: 0 };
  const stop = followPlayerChanges({
    playerId: "P000007",
    onStatus: (s) => statuses.push(s),
    onChange: () => {
      calls.change += 1;
    },
    onResync: () => {
      calls.resync += 1;
    },
  });
  return { statuses, calls, stop };
}

describe("followPlayerChanges", () => {
  it("goes live, passes each change on, and after a lost stream reconnects and resyncs", async () => {
    const first = scriptedStream();
    const second = scriptedStream();
    const f = follow();
    await first.send("feed", { state: "live" });
    await vi.waitFor(() => expect(f.statuses).toEqual(["connecting", "live"]));
    await first.send("change", { player_id: "P000007" });
    await first.send("change", { player_id: "P000007" });
    await vi.waitFor(() => expect(f.calls.change).toBe(2));
    expect(f.calls.resync).toBe(0);

    await first.end(); // cut without renew: lost
    await vi.waitFor(() => expect(f.statuses).toEqual(["connecting", "live", "reconnecting"]));
    await second.send("feed", { state: "live" });
    await vi.waitFor(() => expect(f.statuses).toEqual(["connecting", "live", "reconnecting", "live"]));
    expect(f.calls.resync).toBe(1); // what changed while it was down is read again
    f.stop();
  });

  it("reopens at once after a renew, without saying so", async () => {
    const first = scriptedStream();
    const second = scriptedStream();
    const f = follow();
    await first.send("feed", { state: "live" });
    await first.send("renew", { reason: "lifetime" });
    await first.end();
    await second.send("feed", { state: "live" });
    await vi.waitFor(() => expect(eventCalls).toBe(2));
    expect(f.statuses).toEqual(["connecting", "live"]);
    f.stop();
  });

  it("says Reconnecting… while the server's own feed reconnects, and resyncs when it is back", async () => {
    const only = scriptedStream();
    const f = follow();
    await only.send("feed", { state: "live" });
    await only.send("feed", { state: "connecting" });
    await only.send("feed", { state: "live" });
    await vi.waitFor(() => expect(f.statuses).toEqual(["connecting", "live", "reconnecting", "live"]));
    expect(f.calls.resync).toBe(1);
    f.stop();
  });

  it("is paused, not reconnecting, when the server has no feed (503) or loses it for good", async () => {
    answers.push(() => ({ status: 503, retryAfter: "60" }));
    const f = follow();
    await vi.waitFor(() => expect(f.statuses).toEqual(["connecting", "paused"]));
    f.stop();

    const stream = scriptedStream();
    const g = follow();
    await stream.send("feed", { state: "live" });
    await stream.send("feed", { state: "unavailable" });
    await stream.end();
    // Longer than the first back-off after a lost stream (at most 1 s): a lost stream would have said
    // Reconnecting… and asked again by now. A refused one waits a minute.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(g.statuses).toEqual(["connecting", "live", "paused"]);
    expect(eventCalls).toBe(2);
    g.stop();
  });

  it("reports nothing after stop", async () => {
    const stream = scriptedStream();
    const f = follow();
    f.stop();
    await stream.send("feed", { state: "live" });
    expect(f.statuses).toEqual(["connecting"]);
  });
});
