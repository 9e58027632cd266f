import {
  type ConsumerMessages,
  type JetStreamClient,
  type JsMsg,
  jetstream,
  jetstreamManager,
} from "@nats-io/jetstream";
import { type NatsConnection, headers as natsHeaders } from "@nats-io/transport-node";
import type { Pool } from "pg";
import {
  DEAD_REASON_HEADER,
  DEAD_SUBJECT_HEADER,
  parseWalletPlayer,
  parseWalletTransaction,
  WALLET_STREAM,
  WALLET_SUBJECTS,
  type WalletPlayerEvent,
  type WalletTransactionEvent,
} from "@/features/live/schema/wallet-events";
import { applyBatch, type BatchProgress } from "./apply-batch.ts";
import { BATCH_LOCK_SQL, RECORD_PROGRESS_SQL } from "./apply-sql.ts";
import type { IngestConfig } from "./config.ts";
import { findVersionJumps } from "./version-jumps.ts";
import { ensureConsumer, ensureDeadLetterStream, ensureWalletStream } from "./wallet-stream.ts";

/*
 * npm run ingest: the wallet's events → the read model, exactly once in effect. A durable pull consumer
 * (`consume()`, not `fetch()`, which waits for a full batch) feeds a buffer; the loop takes whatever has arrived,
 * up to INGEST_BATCH_SIZE events, and applies it in ONE database transaction (workers/ingest/apply-batch.ts). Only
 * after COMMIT are the events acked: a crash before leaves them unacked, and the stream delivers them again after
 * ack_wait, where the version check makes the repeat change nothing. Nothing blocks the stream: a malformed event
 * or one whose version jumps too far goes to wallet.dead at once, a transaction of an unknown player is delivered
 * again after a delay and goes to wallet.dead after INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES, and a batch the database
 * refuses for its data (an overflowing sum, a constraint) is split until the event at fault is alone, which goes
 * to wallet.dead with the database's reason while the rest is applied.
 */

export interface IngestLog {
  info(message: string, fields?: Record<string, unknown>): void;
  warn(message: string, fields?: Record<string, unknown>): void;
}

export interface IngestStats {
  batches: number;
  applied: number;
  written: number;
  dead: number;
  waiting: number;
  /** Events in the stream not yet delivered to this consumer, as of the last one delivered. */
  pending: number;
  lastStreamSeq: number;
}

type Decoded =
  | { kind: "transaction"; msg: JsMsg; event: WalletTransactionEvent }
  | { kind: "player"; msg: JsMsg; event: WalletPlayerEvent }
  | { kind: "dead"; msg: JsMsg; reason: string }
  | { kind: "skip"; msg: JsMsg };

const text = new TextDecoder();

/** What one message is: an event to apply, one to dead-letter (why), or one to pass over (wallet.dead's own). */
export function decodeMessage(msg: JsMsg): Decoded {
  if (msg.subject === WALLET_SUBJECTS.dead) return { kind: "skip", msg };
  const body = text.decode(msg.data);
  if (msg.subject === WALLET_SUBJECTS.transaction) {
    const r = parseWalletTransaction(body);
    return r.ok ? { kind: "transaction", msg, event: r.value } : { kind: "dead", msg, reason: r.reason };
  }
  if (msg.subject === WALLET_SUBJECTS.player) {
    const r = parseWalletPlayer(body);
    return r.ok ? { kind: "player", msg, event: r.value } : { kind: "dead", msg, reason: r.reason };
  }
  return { kind: "dead", msg, reason: `unknown subject ${msg.subject}` };
}

/** Per id, the event of the highest version (ties: the later delivery); the others are superseded. */
function highestVersions<T extends { id: string; version: number }>(events: T[]): T[] {
  const best = new Map<string, T>();
  for (const e of events) {
    const held = best.get(e.id);
    if (!held || e.version >= held.version) best.set(e.id, e);
  }
  return [...best.values()];
}

export interface IngestRunner {
  readonly stats: IngestStats;
  /** Stop taking events, finish the batch in hand, hand the rest back to the stream; resolves when done. */
  stop(): Promise<void>;
  /** Resolves when the loop ends (after stop(), or on a fatal error: rejects). */
  readonly done: Promise<void>;
}

export interface StartIngestOptions {
  nc: NatsConnection;
  pool: Pool;
  config: IngestConfig;
  log: IngestLog;
}

export async function startIngest(options: StartIngestOptions): Promise<IngestRunner> {
  const { nc, pool, config, log } = options;
  const js = await prepareConsumer(nc, config);
  const ctx: IngestContext = { js, pool, config, log, stats: emptyStats(), refusedInARow: 0 };
  const state: LoopState = {
    buffer: [],
    wake: null,
    room: null,
    stopping: false,
    messages: null,
    failures: 0,
    lastLog: Date.now(),
    loggedApplied: 0,
  };
  const pumped = pump(ctx, state);
  const done = runLoop(ctx, state);
  return {
    stats: ctx.stats,
    done,
    async stop() {
      state.stopping = true;
      await state.messages?.close().catch(() => undefined);
      signal(state);
      makeRoom(state);
      await done;
      await pumped;
    },
  };
}

/** What every step of one consumer shares. */
interface IngestContext {
  js: JetStreamClient;
  pool: Pool;
  config: IngestConfig;
  log: IngestLog;
  stats: IngestStats;
  /** Events the database refused alone since one was last applied (the brake on dead-lettering everything). */
  refusedInARow: number;
}

/** The loop's mutable state: the events taken from the stream, the loop's wake-up, backoff and log marks. */
interface LoopState {
  /** Decoded as they arrive, so parsing overlaps the database's work on the batch before. */
  buffer: Decoded[];
  wake: (() => void) | null;
  /** The pump waiting for the loop to take a batch (flow control). */
  room: (() => void) | null;
  stopping: boolean;
  messages: ConsumerMessages | null;
  /** Batches failed in a row (the backoff's exponent). */
  failures: number;
  lastLog: number;
  loggedApplied: number;
}

/** The stream and the durable consumer exist (created or updated) before anything is consumed. */
async function prepareConsumer(nc: NatsConnection, config: IngestConfig): Promise<JetStreamClient> {
  const jsm = await jetstreamManager(nc);
  await ensureWalletStream(jsm);
  await ensureDeadLetterStream(jsm, config.INGEST_DEAD_LETTER_MAX_AGE_DAYS * 86_400_000);
  await ensureConsumer(jsm, {
    name: config.INGEST_CONSUMER,
    ackWaitMs: config.INGEST_ACK_WAIT_MS,
    batchSize: config.INGEST_BATCH_SIZE,
  });
  return jetstream(nc);
}

function emptyStats(): IngestStats {
  return { batches: 0, applied: 0, written: 0, dead: 0, waiting: 0, pending: 0, lastStreamSeq: 0 };
}

function signal(state: LoopState) {
  state.wake?.();
  state.wake = null;
}

/** Resolves when the loop has taken a batch from the buffer (or is stopping). */
function waitForRoom(state: LoopState): Promise<void> {
  return new Promise<void>((resolve) => {
    state.room = resolve;
  });
}

function makeRoom(state: LoopState) {
  state.room?.();
  state.room = null;
}

/**
 * The pump: consume() recovers from a reconnect by itself; should its iterator end anyway (the consumer deleted,
 * a fatal status), consume again after a second, until stop().
 */
async function pump({ js, config, log }: IngestContext, state: LoopState) {
  while (!state.stopping) {
    try {
      const consumer = await js.consumers.get(WALLET_STREAM, config.INGEST_CONSUMER);
      state.messages = await consumer.consume({ max_messages: config.INGEST_BATCH_SIZE * 2 });
      if (state.stopping) await state.messages.close();
      for await (const msg of state.messages) {
        state.buffer.push(decodeMessage(msg));
        signal(state);
        // Flow control: stop taking messages while a batch is waiting (consume() itself holds up to two more).
        // Draining the iterator into an unbounded buffer defeats the pull's own bound, and a message left waiting
        // past ack_wait is delivered again (measured at 2,000 events/s: lag climbing to 14 s, redeliveries,
        // unknown-player bounds reached).
        if (state.buffer.length >= config.INGEST_BATCH_SIZE && !state.stopping) await waitForRoom(state);
      }
    } catch (error) {
      log.warn("ingest: consuming failed, trying again", { error: String(error) });
    }
    if (!state.stopping) await new Promise((r) => setTimeout(r, 1_000));
  }
}

/** Takes whatever has arrived, up to a batch, until stop(); then hands the rest back. */
async function runLoop(ctx: IngestContext, state: LoopState) {
  while (!state.stopping) {
    if (state.buffer.length === 0) {
      await new Promise<void>((resolve) => {
        state.wake = resolve;
        setTimeout(resolve, 1_000); // a periodic wake, for the progress line
      });
      logProgress(ctx, state);
      continue;
    }
    const batch = state.buffer.splice(0, ctx.config.INGEST_BATCH_SIZE);
    makeRoom(state);
    await processBatch(ctx, state, batch);
    logProgress(ctx, state);
  }
  // Events taken from the stream but not applied go back at once (not after ack_wait).
  for (const d of state.buffer.splice(0)) d.msg.nak();
  logProgress(ctx, state, true);
}

async function processBatch(ctx: IngestContext, state: LoopState, batch: Decoded[]) {
  try {
    await applyOrSplit(ctx, batch);
    state.failures = 0;
  } catch (error) {
    // The database is unreachable (or failed otherwise than on the data): nothing of this part was committed
    // or acked (nak passes over what an applied half acked). The events come back after a short delay;
    // meanwhile back off, up to 5 s.
    state.failures += 1;
    for (const d of batch) d.msg.nak(1_000);
    ctx.log.warn("ingest: batch not applied, its events will be delivered again", {
      events: batch.length,
      error: String((error as Error).message ?? error),
    });
    await new Promise((r) => setTimeout(r, Math.min(5_000, 250 * 2 ** Math.min(state.failures, 5))));
  }
}

/**
 * A data error of the database (SQLSTATE classes 22 and 23: an overflowing sum, a value out of range, a broken
 * constraint) is about the events, not an outage: retried whole it would fail forever and hold up every event
 * sharing its batch.
 */
export function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === "string" && /^2[23][0-9A-Z]{3}$/.test(code);
}

/**
 * Applies the batch; when the database refuses its data, applies each half in turn (order kept, so each player's
 * events stay in order) until the event at fault is alone: that one goes to wallet.dead with the reason.
 */
async function applyOrSplit(ctx: IngestContext, batch: Decoded[]): Promise<void> {
  try {
    await applyOnce(ctx, batch);
  } catch (error) {
    if (!isDataError(error)) throw error;
    const [only] = batch;
    if (batch.length === 1 && only) {
      // Refused one by one with none applied in between: the schema or a constraint more likely than the
      // events. Dead-lettering on would empty the stream into wallet.dead (where they expire): treated as an
      // outage instead, retried with backoff until an event applies again.
      if (ctx.refusedInARow >= ctx.config.INGEST_MAX_REFUSED_IN_A_ROW) {
        ctx.log.warn("ingest: the database refuses every event, not dead-lettering more until one applies", {
          refusedInARow: ctx.refusedInARow,
          error: (error as Error).message,
        });
        throw error;
      }
      await refuseAlone(ctx, only, error as Error & { code: string });
      ctx.refusedInARow += 1;
      return;
    }
    ctx.log.warn("ingest: the database refused a batch's data, splitting it to find the event at fault", {
      events: batch.length,
      error: (error as Error).message,
    });
    const half = Math.ceil(batch.length / 2);
    await applyOrSplit(ctx, batch.slice(0, half));
    await applyOrSplit(ctx, batch.slice(half));
  }
}

/** The one event the database refuses: to wallet.dead, counted in the progress row (its own transaction). */
async function refuseAlone(ctx: IngestContext, d: Decoded, error: Error & { code: string }) {
  const reason = `refused by the database: ${error.message} (SQLSTATE ${error.code})`;
  const sent = await sendDeadLetters(ctx, [{ msg: d.msg, reason }]);
  if (!sent) return;
  ctx.stats.dead += 1;
  const progress = planBatch(ctx.config, [{ kind: "dead", msg: d.msg, reason }]).progress;
  const client = await ctx.pool.connect();
  try {
    await client.query("BEGIN");
    await client.query(BATCH_LOCK_SQL);
    await client.query(RECORD_PROGRESS_SQL, [
      progress.consumer,
      progress.streamSeq,
      progress.subject,
      progress.eventId,
      progress.publishedAt,
      0,
      1,
    ]);
    await client.query("COMMIT");
    client.release();
  } catch (e) {
    await client.query("ROLLBACK").catch(() => undefined);
    client.release(true);
    // The dead letter is out and acked: only the health's count misses it.
    ctx.log.warn("ingest: a dead letter not counted in ingest_progress", { error: String(e) });
  }
}

function logProgress({ config, log, stats }: IngestContext, state: LoopState, force = false) {
  const now = Date.now();
  if (!force && now - state.lastLog < config.INGEST_LOG_EVERY_MS) return;
  const rate = ((stats.applied - state.loggedApplied) * 1000) / Math.max(1, now - state.lastLog);
  log.info("ingest: progress", { ...stats, eventsPerSecond: Math.round(rate) });
  state.lastLog = now;
  state.loggedApplied = stats.applied;
}

type DeadDecoded = Extract<Decoded, { kind: "dead" }>;
type TransactionDecoded = Extract<Decoded, { kind: "transaction" }>;
type BatchResult = Awaited<ReturnType<typeof applyBatch>>;

/**
 * One batch (decoded as it arrived): apply it in one transaction, then settle every event (dead-letter, ack or
 * deliver again).
 */
async function applyOnce(ctx: IngestContext, batch: Decoded[]) {
  const { plan, result } = await commitBatch(ctx, batch);
  // Committed: from here on every event of the batch is settled.
  const waitingMsgs = plan.decoded.filter(
    (d) => d.kind === "transaction" && result.waiting.has(d.event.id),
  ) as TransactionDecoded[];
  const toDead = deadLetters(ctx.config, plan.deadNow, waitingMsgs);
  await sendDeadLetters(ctx, toDead);
  settleOthers(ctx.config, batch, toDead, waitingMsgs);
  const { stats } = ctx;
  stats.batches += 1;
  const applied = batch.length - toDead.length - waitingMsgs.length;
  stats.applied += applied;
  if (applied > 0) ctx.refusedInARow = 0;
  stats.written += result.written.transactions + result.written.players;
  stats.dead += toDead.length;
  stats.waiting += waitingMsgs.length - (toDead.length - plan.deadNow.length);
  stats.pending = plan.last.info.pending;
  stats.lastStreamSeq = Math.max(stats.lastStreamSeq, plan.last.seq);
}

type BatchPlan = ReturnType<typeof planBatch>;

/** The batch decoded: the highest version per id to apply, the malformed events, and the progress to record. */
function planBatch(config: IngestConfig, decoded: Decoded[]) {
  const transactions = highestVersions(decoded.flatMap((d) => (d.kind === "transaction" ? [d.event] : [])));
  const players = highestVersions(decoded.flatMap((d) => (d.kind === "player" ? [d.event] : [])));
  const deadNow = decoded.filter((d): d is DeadDecoded => d.kind === "dead");
  const last = decoded.map((d) => d.msg).reduce((a, m) => (m.seq > a.seq ? m : a));
  // A transaction waits for its player at most this many deliveries (the highest delivery in the batch counts).
  const deliveries = new Map<string, number>();
  for (const d of decoded) {
    if (d.kind === "transaction")
      deliveries.set(d.event.id, Math.max(deliveries.get(d.event.id) ?? 0, d.msg.info.deliveryCount));
  }
  const deadIfWaiting = (id: string) =>
    (deliveries.get(id) ?? 0) >= config.INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES;
  const progress: BatchProgress = {
    consumer: config.INGEST_CONSUMER,
    streamSeq: last.seq,
    subject: last.subject,
    eventId: last.headers?.get("Nats-Msg-Id") || `seq:${last.seq}`,
    publishedAt: new Date(Math.floor(last.info.timestampNanos / 1e6)),
    applied: decoded.length - deadNow.length,
    dead: deadNow.length,
  };
  return { decoded, transactions, players, deadNow, last, deadIfWaiting, progress };
}

/**
 * Plans and applies the batch in ONE database transaction: under the batch lock, the events whose version jumps
 * too far become dead letters before each record's highest version is picked. On any failure rolls back (and
 * discards the connection unless the failure was a data error).
 */
async function commitBatch(
  { pool, log, config }: IngestContext,
  batch: Decoded[],
): Promise<{ plan: BatchPlan; result: BatchResult }> {
  const client = await pool.connect();
  // A connection lost while checked out emits 'error' on the client (the pool listens only to idle ones):
  // without a listener that would end the process; the query in flight fails and the batch is retried.
  const onLost = (error: Error) =>
    log.warn("ingest: database connection lost mid-batch", { error: error.message });
  client.on("error", onLost);
  let result: BatchResult;
  let plan: BatchPlan;
  try {
    await client.query("BEGIN");
    await client.query(BATCH_LOCK_SQL);
    const events = batch.filter(
      (d): d is Extract<Decoded, { kind: "transaction" | "player" }> =>
        d.kind === "transaction" || d.kind === "player",
    );
    const jumps = await findVersionJumps({ events, maxJump: config.INGEST_MAX_VERSION_JUMP }, client);
    const checked = batch.map((d): Decoded => {
      const reason = jumps.get(d as (typeof events)[number]);
      return reason ? { kind: "dead", msg: d.msg, reason } : d;
    });
    plan = planBatch(config, checked);
    const { players, transactions, progress, deadIfWaiting } = plan;
    result = await applyBatch(client, { players, transactions, progress, deadIfWaiting });
    await client.query("COMMIT");
  } catch (error) {
    const rolledBack = await client.query("ROLLBACK").then(
      () => true,
      () => false,
    );
    client.off("error", onLost);
    // A data error leaves a sound connection: kept (the embedded PGlite shares one session between connections,
    // and a fresh one would prepare the named statements a second time there). Anything else: discarded.
    client.release(!(rolledBack && isDataError(error)));
    throw error;
  }
  client.off("error", onLost);
  client.release();
  return { plan, result };
}

/** The events to dead-letter: the malformed ones, and those whose player stayed unknown too many deliveries. */
function deadLetters(config: IngestConfig, deadNow: DeadDecoded[], waitingMsgs: TransactionDecoded[]) {
  return [
    ...deadNow.map((d) => ({ msg: d.msg, reason: d.reason })),
    ...waitingMsgs
      .filter((d) => d.msg.info.deliveryCount >= config.INGEST_UNKNOWN_PLAYER_MAX_DELIVERIES)
      .map((d) => ({
        msg: d.msg,
        reason: `unknown player ${d.event.player_id} after ${d.msg.info.deliveryCount} deliveries`,
      })),
  ];
}

/** Publishes and acks each dead letter (one that cannot be published is delivered again later); how many went. */
async function sendDeadLetters(
  ctx: IngestContext,
  toDead: { msg: JsMsg; reason: string }[],
): Promise<number> {
  const { config, log } = ctx;
  let sent = 0;
  for (const d of toDead) {
    try {
      await deadLetter(ctx.js, d.msg, d.reason);
      d.msg.ack();
      sent += 1;
      log.warn("ingest: event dead-lettered", { seq: d.msg.seq, subject: d.msg.subject, reason: d.reason });
    } catch (error) {
      d.msg.nak(config.INGEST_UNKNOWN_PLAYER_DELAY_MS);
      log.warn("ingest: could not dead-letter, delivered again later", {
        seq: d.msg.seq,
        error: String(error),
      });
    }
  }
  return sent;
}

/** Publishes a dead letter: the original payload, why, and where it came from. */
async function deadLetter(js: JetStreamClient, msg: JsMsg, reason: string) {
  const h = natsHeaders();
  h.set(DEAD_REASON_HEADER, reason.slice(0, 1_000).replace(/[\r\n]+/g, " "));
  h.set(DEAD_SUBJECT_HEADER, msg.subject);
  const originalId = msg.headers?.get("Nats-Msg-Id");
  if (originalId) h.set("Original-Msg-Id", originalId);
  await js.publish(WALLET_SUBJECTS.dead, msg.data, { headers: h, msgID: `dead:${msg.seq}` });
}

/** Acks every event not dead-lettered, except those waiting for their player: delivered again after a delay. */
function settleOthers(
  config: IngestConfig,
  batch: Decoded[],
  toDead: { msg: JsMsg }[],
  waitingMsgs: TransactionDecoded[],
) {
  const deadSet = new Set(toDead.map((d) => d.msg));
  const waitingSet = new Set(waitingMsgs.map((d) => d.msg));
  for (const { msg } of batch) {
    if (deadSet.has(msg)) continue;
    if (waitingSet.has(msg)) msg.nak(config.INGEST_UNKNOWN_PLAYER_DELAY_MS);
    else msg.ack();
  }
}
