import { describe, expect, it } from "vitest";
import { mapInOrder } from "./map-in-order.ts";

async function* numbers(n: number, pulled: number[]) {
  for (let i = 0; i < n; i++) {
    pulled.push(i);
    yield i;
  }
}

describe("mapInOrder", () => {
  it("yields results in source order when later items finish first, with at most `limit` outstanding", async () => {
    const pulled: number[] = [];
    let outstanding = 0;
    let most = 0;
    const resolvers: (() => void)[] = [];
    const fn = (i: number) => {
      outstanding++;
      most = Math.max(most, outstanding);
      return new Promise<number>((resolve) => {
        resolvers.push(() => {
          outstanding--;
          resolve(i * 10);
        });
      });
    };
    const out: number[] = [];
    const consumer = (async () => {
      for await (const r of mapInOrder(numbers(10, pulled), fn, 3)) out.push(r);
    })();
    // Settle outstanding calls newest first, over and over, until the consumer is done.
    let finished = false;
    consumer.then(() => {
      finished = true;
    });
    while (!finished) {
      await new Promise((r) => setImmediate(r));
      resolvers.reverse();
      for (const settle of resolvers.splice(0)) settle();
    }
    expect(out).toEqual([0, 10, 20, 30, 40, 50, 60, 70, 80, 90]);
    expect(most).toBeLessThanOrEqual(3);
    expect(pulled).toHaveLength(10);
  });

  it("does not read the source further than `limit` items ahead of the consumer", async () => {
    const pulled: number[] = [];
    const results = mapInOrder(numbers(1_000, pulled), async (i) => i, 4);
    await results.next();
    await results.next();
    expect(pulled.length).toBeLessThanOrEqual(2 + 4);
    await results.return(undefined);
  });

  it("passes a failure on in order and stops reading", async () => {
    const pulled: number[] = [];
    const out: number[] = [];
    await expect(
      (async () => {
        for await (const r of mapInOrder(
          numbers(100, pulled),
          async (i) => {
            if (i === 5) throw new Error("bad batch 5");
            return i;
          },
          2,
        ))
          out.push(r);
      })(),
    ).rejects.toThrow("bad batch 5");
    expect(out).toEqual([0, 1, 2, 3, 4]);
    expect(pulled.length).toBeLessThan(10);
  });
});
