import { describe, expect, it, vi } from "vitest";
import { Semaphore } from "./semaphore.ts";

describe("Semaphore", () => {
  it("grants up to its slots at once and the rest in arrival order as slots free up", async () => {
    const gate = new Semaphore(2);
    const a = await gate.acquire(1_000);
    const b = await gate.acquire(1_000);
    const order: string[] = [];
    const track = (name: string) => (release: (() => void) | null) => {
      order.push(name);
      return release;
    };
    const c = gate.acquire(1_000).then(track("c"));
    const d = gate.acquire(1_000).then(track("d"));
    await Promise.resolve();
    expect(order).toEqual([]);
    expect(gate.inUse).toBe(2);
    a?.();
    const releaseC = await c;
    expect(order).toEqual(["c"]);
    b?.();
    b?.(); // twice releases once
    const releaseD = await d;
    expect(order).toEqual(["c", "d"]);
    expect(gate.inUse).toBe(2);
    releaseC?.();
    releaseD?.();
    expect(gate.inUse).toBe(0);
  });

  it("gives up after the wait and then takes no slot", async () => {
    vi.useFakeTimers();
    try {
      const gate = new Semaphore(1);
      const held = await gate.acquire(10);
      const late = gate.acquire(50);
      vi.advanceTimersByTime(60);
      expect(await late).toBeNull();
      held?.();
      expect(gate.inUse).toBe(0);
      expect(await gate.acquire(10)).toBeTypeOf("function");
    } finally {
      vi.useRealTimers();
    }
  });
});
