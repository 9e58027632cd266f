import type { JetStreamClient } from "@nats-io/jetstream";
import { walletMsgId } from "@/lib/schemas/wallet-events";
import type { SimEvent, WalletSim } from "./wallet-sim.ts";

/*
 * Publishes wallet events as the wallet must: each under `Nats-Msg-Id: <id>:<version>`, retried under the SAME id
 * until the stream acknowledges it (a retry after a lost ack is then dropped as a duplicate, never stored twice),
 * with a bounded number in flight.
 */
/** An event's JSON: `amount` as an exact JSON number (its digits), as db:import's lines and the API write it. */
export function eventJson(event: SimEvent): string {
  if (event.subject !== "wallet.transaction") return JSON.stringify(event.record);
  const { amount, ...rest } = event.record;
  return JSON.stringify({ ...rest, amount: 0 }).replace(/"amount":0}$/, `"amount":${amount}}`);
}

/**
 * The wallet's NATS connection options: no Error (with its stack) made ahead of each request for the case it fails;
 * at 5,000 publishes/s those captures took a fifth of the publisher's CPU (a failed publish is retried anyway).
 */
export const PUBLISHING_CONNECTION = { noAsyncTraces: true } as const;

export interface PublisherOptions {
  maxInFlight?: number;
  /** Called with each event once the stream has acknowledged it. */
  onAck?: (event: SimEvent, publishedAt: number, streamSeq: number, duplicate: boolean) => void;
  onRetry?: (error: unknown) => void;
}

export class Publisher {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  published = 0;
  retries = 0;
  private readonly encoder = new TextEncoder();

  constructor(
    private readonly js: JetStreamClient,
    private readonly options: PublisherOptions = {},
  ) {}

  /**
   * Hands the event over: at once when fewer than maxInFlight are unacknowledged (no promise: a caller's loop then
   * keeps writing into the same socket write, which the client flushes at the next microtask), else a promise that
   * resolves once it is handed over. Awaiting each event instead cost one write per event: at 5,000 events/s the
   * publisher and NATS spent a third of their CPU in those writes.
   */
  publish(event: SimEvent): Promise<void> | undefined {
    if (this.inFlight < (this.options.maxInFlight ?? 512)) {
      this.start(event);
      return undefined;
    }
    return this.publishWhenFree(event);
  }

  /** Hands every event over in order, awaiting only where the in-flight bound makes it wait. */
  async publishAll(events: Iterable<SimEvent>): Promise<void> {
    for (const e of events) {
      const wait = this.publish(e);
      if (wait) await wait;
    }
  }

  private async publishWhenFree(event: SimEvent): Promise<void> {
    while (this.inFlight >= (this.options.maxInFlight ?? 512)) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    this.start(event);
  }

  private start(event: SimEvent): void {
    this.inFlight += 1;
    void this.send(event).finally(() => {
      this.inFlight -= 1;
      this.waiters.shift()?.();
    });
  }

  private async send(event: SimEvent): Promise<void> {
    const data = this.encoder.encode(eventJson(event));
    const msgID = walletMsgId(event.record);
    for (let attempt = 0; ; attempt++) {
      const at = Date.now();
      try {
        const ack = await this.js.publish(event.subject, data, { msgID, timeout: 5_000 });
        this.published += 1;
        this.options.onAck?.(event, at, ack.seq, ack.duplicate);
        return;
      } catch (error) {
        this.retries += 1;
        this.options.onRetry?.(error);
        await new Promise((r) => setTimeout(r, Math.min(2_000, 50 * 2 ** Math.min(attempt, 6))));
      }
    }
  }

  /** Waits until every event handed over is acknowledged. */
  async settle(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((r) => this.waiters.push(r));
  }
}

/** The final states as db:import's NDJSON files: what the read model must equal (the exactness check). */
export const playersNdjson = (sim: WalletSim) =>
  [...sim.finalPlayers.values()]
    .map((record) => `${eventJson({ subject: "wallet.player", record })}\n`)
    .join("");
export const transactionsNdjson = (sim: WalletSim) =>
  [...sim.finalTransactions.values()]
    .map((record) => `${eventJson({ subject: "wallet.transaction", record })}\n`)
    .join("");
