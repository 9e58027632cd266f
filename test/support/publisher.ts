import { createInbox, headers, type Msg, type MsgHdrs, type NatsConnection } from "@nats-io/transport-node";
import { walletMsgId } from "@/features/live/schema/wallet-events";
import type { SimEvent, WalletSim } from "./wallet-sim.ts";

/*
 * Publishes wallet events as the wallet must: each under `Nats-Msg-Id: <id>:<version>`, retried under the SAME id
 * until the stream acknowledges it (a retry after a lost ack is then dropped as a duplicate, never stored twice),
 * with a bounded number in flight.
 *
 * Asynchronously, as a high-rate JetStream publisher does: each message goes out with a reply subject under one
 * inbox of this publisher, the stream's acknowledgement (PubAck) comes back there, and a sweep sends again what
 * got none within ACK_WAIT_MS. Not js.publish(): nats-core builds an Error, with its stack, when each request
 * completes (RequestOne.cancel), plus a timer per request; at 5,000 events/s the simulated wallet then took most of
 * a core beside the consumer and PostgreSQL on this 2-core machine (the burst's lag p99 2.1 s; 0.36 s without those
 * captures).
 */
/** An event's JSON: `amount` as an exact JSON number (its digits), as db:import's lines and the API write it. */
export function eventJson(event: SimEvent): string {
  if (event.subject !== "wallet.transaction") return JSON.stringify(event.record);
  const { amount, ...rest } = event.record;
  return JSON.stringify({ ...rest, amount: 0 }).replace(/"amount":0}$/, `"amount":${amount}}`);
}

const ACK_WAIT_MS = 5_000;

export interface PublisherOptions {
  maxInFlight?: number;
  /** Called with each event once the stream has acknowledged it (`publishedAt`: when that attempt was sent). */
  onAck?: (event: SimEvent, publishedAt: number, streamSeq: number, duplicate: boolean) => void;
  onRetry?: (error: unknown) => void;
}

interface Outstanding {
  event: SimEvent;
  data: Uint8Array;
  headers: MsgHdrs;
  attempt: number;
  sentAt: number;
}

type PubAck = { seq: number; duplicate: boolean } | { error: string };

/** The stream's answer to one publish: its sequence, or why it was not stored. */
function readPubAck(msg: Msg): PubAck {
  if (msg.data.length === 0) return { error: `no stream answered (status ${msg.headers?.code ?? "none"})` };
  const body = msg.json<{ seq?: unknown; duplicate?: unknown; error?: { description?: string } }>();
  if (body.error) return { error: body.error.description ?? "the stream refused the message" };
  if (typeof body.seq !== "number") return { error: "an acknowledgement without a sequence" };
  return { seq: body.seq, duplicate: body.duplicate === true };
}

export class Publisher {
  private inFlight = 0;
  private waiters: (() => void)[] = [];
  published = 0;
  retries = 0;
  private readonly encoder = new TextEncoder();
  private readonly inbox = createInbox();
  private readonly awaitingAck = new Map<string, Outstanding>();
  private nextToken = 0;
  private readonly maxInFlight: number;

  constructor(
    private readonly nc: NatsConnection,
    private readonly options: PublisherOptions = {},
  ) {
    this.maxInFlight = options.maxInFlight ?? 512;
    nc.subscribe(`${this.inbox}.*`, { callback: (_error, msg) => this.onReply(msg) });
    const sweep = setInterval(() => this.resendUnacknowledged(), 500);
    sweep.unref();
    void nc.closed().then(() => clearInterval(sweep));
  }

  /**
   * Hands the event over: at once when fewer than maxInFlight are unacknowledged (no promise: a caller's loop then
   * keeps writing into the same socket write, which the client flushes at the next microtask), else a promise that
   * resolves once it is handed over. Awaiting each event instead cost one write per event: at 5,000 events/s the
   * publisher and NATS spent a third of their CPU in those writes.
   */
  publish(event: SimEvent): Promise<void> | undefined {
    if (this.inFlight < this.maxInFlight) {
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

  /** Waits until every event handed over is acknowledged. */
  async settle(): Promise<void> {
    while (this.inFlight > 0) await new Promise<void>((r) => this.waiters.push(r));
  }

  private async publishWhenFree(event: SimEvent): Promise<void> {
    while (this.inFlight >= this.maxInFlight) {
      await new Promise<void>((r) => this.waiters.push(r));
    }
    this.start(event);
  }

  private start(event: SimEvent): void {
    this.inFlight += 1;
    const h = headers();
    h.set("Nats-Msg-Id", walletMsgId(event.record));
    this.send({ event, data: this.encoder.encode(eventJson(event)), headers: h, attempt: 0, sentAt: 0 });
  }

  private send(out: Outstanding): void {
    const token = String(++this.nextToken);
    out.sentAt = Date.now();
    this.awaitingAck.set(token, out);
    try {
      this.nc.publish(out.event.subject, out.data, { headers: out.headers, reply: `${this.inbox}.${token}` });
    } catch (error) {
      this.awaitingAck.delete(token);
      this.retry(out, error);
    }
  }

  private onReply(msg: Msg): void {
    const token = msg.subject.slice(this.inbox.length + 1);
    const out = this.awaitingAck.get(token);
    // An answer to an attempt already given up on: the retry's own answer counts.
    if (!out) return;
    this.awaitingAck.delete(token);
    const ack = readPubAck(msg);
    if ("error" in ack) {
      this.retry(out, new Error(ack.error));
      return;
    }
    this.published += 1;
    this.options.onAck?.(out.event, out.sentAt, ack.seq, ack.duplicate);
    this.inFlight -= 1;
    this.waiters.shift()?.();
  }

  /** Sends again, under the same message id, what the stream has not acknowledged within ACK_WAIT_MS. */
  private resendUnacknowledged(): void {
    const before = Date.now() - ACK_WAIT_MS;
    for (const [token, out] of this.awaitingAck) {
      if (out.sentAt > before) continue;
      this.awaitingAck.delete(token);
      this.retry(out, new Error(`no acknowledgement within ${ACK_WAIT_MS} ms`));
    }
  }

  private retry(out: Outstanding, error: unknown): void {
    this.retries += 1;
    this.options.onRetry?.(error);
    out.attempt += 1;
    setTimeout(() => this.send(out), Math.min(2_000, 50 * 2 ** Math.min(out.attempt - 1, 6)));
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
