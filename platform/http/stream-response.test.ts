import { describe, expect, it } from "vitest";
import { streamResponse } from "./stream-response.ts";

/** An endless source that records whether it was closed (its `finally` ran). */
function endless() {
  const state = { produced: 0, closed: false };
  async function* lines() {
    try {
      for (;;) {
        state.produced += 1;
        yield `line ${state.produced}\n`;
      }
    } finally {
      state.closed = true;
    }
  }
  return { state, source: lines() };
}

const init = { headers: {}, requestId: "r1", route: "/export" };
const until = async (check: () => boolean) => {
  for (let i = 0; i < 200 && !check(); i++) await new Promise((r) => setTimeout(r, 10));
};

describe("streamed responses", () => {
  it("a reader that takes nothing for idleTimeoutMs is cut: source closed, slot released, connection closed", async () => {
    const { state, source } = endless();
    let done = 0;
    let closed = 0;
    const response = streamResponse(source, {
      ...init,
      idleTimeoutMs: 50,
      onDone: () => done++,
      onIdle: () => {
        closed++;
        return true;
      },
    });
    const reader = response.body?.getReader();
    await reader?.read(); // one chunk, then the reader stops reading
    await until(() => done > 0 && state.closed);
    expect({ done, closed, sourceClosed: state.closed }).toEqual({ done: 1, closed: 1, sourceClosed: true });
    await reader?.cancel();
    expect(done).toBe(1);
  });

  it("without a connection to close, the cut body errors for a reader that comes back", async () => {
    const { source } = endless();
    const response = streamResponse(source, { ...init, idleTimeoutMs: 30, onIdle: () => false });
    const reader = response.body?.getReader();
    await reader?.read();
    await new Promise((r) => setTimeout(r, 150));
    await expect(async () => {
      for (let i = 0; i < 10; i++) await reader?.read();
    }).rejects.toThrow(/took nothing/);
  });

  it("a reader that keeps reading is never cut, and a hang-up mid-read closes the source once", async () => {
    const { state, source } = endless();
    let done = 0;
    const response = streamResponse(source, { ...init, idleTimeoutMs: 40, onDone: () => done++ });
    const reader = response.body?.getReader();
    for (let i = 0; i < 8; i++) {
      await reader?.read();
      await new Promise((r) => setTimeout(r, 15));
    }
    expect(done).toBe(0);
    await reader?.cancel();
    await until(() => state.closed);
    expect({ done, sourceClosed: state.closed }).toEqual({ done: 1, sourceClosed: true });
  });
});
