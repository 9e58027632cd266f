import { describe, expect, it } from "vitest";
import { SseParser } from "./sse-parser.ts";

describe("SseParser", () => {
  it("reads named events with JSON data, skipping comments, and the retry delay", () => {
    const p = new SseParser();
    const events = p.push(
      'retry: 2000\n\nevent: feed\ndata: {"state":"live"}\n\n: keep-alive\n\nevent: change\ndata: {"player_id":"P1"}\n\n',
    );
    expect(events).toEqual([
      { event: "feed", data: '{"state":"live"}' },
      { event: "change", data: '{"player_id":"P1"}' },
    ]);
    expect(p.retryMs).toBe(2000);
  });

  it("completes events split across pieces at any point, CRLF and CR line ends included", () => {
    // A CR that ends the input may be half of a CRLF: the last line end here is a CRLF, so nothing waits.
    const text = "event: change\r\ndata: a\r\ndata: b\r\n\r\nevent: feed\rdata: c\r\r\n";
    for (let cut = 0; cut <= text.length; cut++) {
      const p = new SseParser();
      const events = [...p.push(text.slice(0, cut)), ...p.push(text.slice(cut))];
      expect(events).toEqual([
        { event: "change", data: "a\nb" },
        { event: "feed", data: "c" },
      ]);
    }
  });

  it("dispatches nothing for an event without data and calls an unnamed one a message", () => {
    const p = new SseParser();
    expect(p.push("event: feed\n\ndata: x\n\n")).toEqual([{ event: "message", data: "x" }]);
    expect(p.push("data:no-space\n\n")).toEqual([{ event: "message", data: "no-space" }]);
  });
});
