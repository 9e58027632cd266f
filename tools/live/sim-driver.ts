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
  const send = async (e: SimEvent) => {
    options.onEvent?.(e);
    await publisher.publish(e);
    sent += 1;
    if (sim.duplicate()) await publisher.publish(e);
  };
  while (!options.signal?.aborted) {
    const now = Date.now();
    if (now - start >= options.durationMs) break;
    const due = Math.floor(((now - start) * options.rate) / 1000);
    while (sent < due && !options.signal?.aborted) {
      for (const e of sim.step(Date.now())) await send(e);
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  return sent;
}

/** Publishes every settlement still pending, so the final states are all in the stream. */
export async function settleAll(sim: WalletSim, publisher: Publisher): Promise<void> {
  for (const e of sim.settle(Number.POSITIVE_INFINITY)) await publisher.publish(e);
  await publisher.settle();
}
