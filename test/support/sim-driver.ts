import type { Publisher } from "./publisher.ts";
import type { SimEvent, WalletSim } from "./wallet-sim.ts";

export interface DriveOptions {
  /** Events per second (transaction events; settlements and duplicates come on top of the steps). */
  rate: number;
  durationMs: number;
  /** Stops early when aborted. */
  signal?: AbortSignal;
  onEvent?: (event: SimEvent) => void;
}

/** Runs the simulation at a rate: every 10 ms, as many steps as the rate asks for by then. */
export async function drive(sim: WalletSim, publisher: Publisher, options: DriveOptions): Promise<number> {
  const start = Date.now();
  let sent = 0;
  // Each tick's events are handed over without an await between them (one socket write for all), except where
  // the publisher's in-flight bound makes the loop wait.
  while (!options.signal?.aborted) {
    const now = Date.now();
    if (now - start >= options.durationMs) break;
    const due = Math.floor(((now - start) * options.rate) / 1000);
    while (sent < due && !options.signal?.aborted) {
      for (const e of sim.step(Date.now())) {
        options.onEvent?.(e);
        for (const copy of sim.duplicate() ? [e, e] : [e]) {
          const wait = publisher.publish(copy);
          if (wait) await wait;
        }
        sent += 1;
      }
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return sent;
}

/** Publishes every settlement still pending, so the final states are all in the stream. */
export async function settleAll(sim: WalletSim, publisher: Publisher): Promise<void> {
  await publisher.publishAll(sim.settle(Number.POSITIVE_INFINITY));
  await publisher.settle();
}
