/** One Server-Sent Event as dispatched (the `message` default when the stream named none). */
export interface SseEvent {
  event: string;
  data: string;
}

/**
 * An incremental `text/event-stream` parser (the WHATWG rules the browser's EventSource follows): feed it text as
 * it arrives, in any pieces; it returns the events completed so far. Comments (`:` lines, the server's
 * keep-alives) count as activity but are no events; `retry` is read, `id` is ignored (the server keeps none).
 * The browser needs its own parser because EventSource cannot send the bearer token the API requires.
 */
export class SseParser {
  private buffer = "";
  private event = "";
  private data: string[] = [];
  /** The server's reconnection delay, when it sent one. */
  retryMs: number | null = null;

  push(text: string): SseEvent[] {
    this.buffer += text;
    const out: SseEvent[] = [];
    for (;;) {
      const match = /\r\n|\r|\n/.exec(this.buffer);
      // A lone CR at the end may be the first half of CRLF: wait for the next piece.
      if (!match || (match[0] === "\r" && match.index === this.buffer.length - 1)) break;
      const line = this.buffer.slice(0, match.index);
      this.buffer = this.buffer.slice(match.index + match[0].length);
      const event = this.line(line);
      if (event) out.push(event);
    }
    return out;
  }

  private line(line: string): SseEvent | null {
    if (line === "") {
      if (this.data.length === 0) {
        this.event = "";
        return null;
      }
      const event = { event: this.event || "message", data: this.data.join("\n") };
      this.event = "";
      this.data = [];
      return event;
    }
    if (line.startsWith(":")) return null;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    if (field === "event") this.event = value;
    else if (field === "data") this.data.push(value);
    else if (field === "retry" && /^\d+$/.test(value)) this.retryMs = Number(value);
    return null;
  }
}
