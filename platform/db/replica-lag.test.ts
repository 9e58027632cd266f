import { describe, expect, it } from "vitest";
import { LagTracker, parseLsn } from "./replica-lag.ts";

describe("parseLsn", () => {
  it("reads both halves as hex", () => {
    expect(parseLsn("0/0")).toBe(0n);
    expect(parseLsn("16/B374D848")).toBe((0x16n << 32n) + 0xb374d848n);
    expect(parseLsn("1/0") > parseLsn("0/FFFFFFFF")).toBe(true);
  });
  it("refuses what is not an LSN", () => {
    expect(() => parseLsn("16-B3")).toThrow(/not an LSN/);
  });
});

describe("LagTracker", () => {
  it("is zero when nothing is pending, however long the primary was idle", () => {
    const t = new LagTracker();
    expect(t.observe({ primaryLsn: 100n, replayLsn: 100n, now: 0 })).toBe(0);
    expect(t.observe({ primaryLsn: 100n, replayLsn: 100n, now: 60_000 })).toBe(0);
  });
  it("is the age of the oldest position not yet replayed", () => {
    const t = new LagTracker();
    expect(t.observe({ primaryLsn: 200n, replayLsn: 100n, now: 1_000 })).toBe(0);
    expect(t.observe({ primaryLsn: 300n, replayLsn: 100n, now: 1_250 })).toBe(250);
    expect(t.observe({ primaryLsn: 400n, replayLsn: 100n, now: 3_500 })).toBe(2_500);
    // 200 replayed: the oldest pending is 300, seen at 1,250.
    expect(t.observe({ primaryLsn: 400n, replayLsn: 250n, now: 3_750 })).toBe(2_500);
    expect(t.observe({ primaryLsn: 400n, replayLsn: 300n, now: 4_000 })).toBe(500);
    expect(t.observe({ primaryLsn: 400n, replayLsn: 400n, now: 4_250 })).toBe(0);
  });
  it("keeps counting while replay is paused and the primary keeps writing", () => {
    const t = new LagTracker();
    let lag = 0;
    for (let i = 1; i <= 20; i++)
      lag = t.observe({ primaryLsn: 100n + BigInt(i), replayLsn: 100n, now: i * 250 });
    expect(lag).toBe(19 * 250);
  });
});
