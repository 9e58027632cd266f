import {
  AckPolicy,
  DeliverPolicy,
  JetStreamApiError,
  type JetStreamManager,
  StorageType,
} from "@nats-io/jetstream";
import { nanos } from "@nats-io/transport-node";
import {
  DEAD_STREAM,
  WALLET_EVENT_SUBJECTS,
  WALLET_STREAM,
  WALLET_SUBJECTS,
} from "@/features/live/schema/wallet-events";

/*
 * The stream and the durable consumer, created when missing (the wallet owns the stream in production; here the
 * consumer and the simulator make sure it exists). File storage: events survive a restart of the NATS server.
 */

/** How long the stream remembers a message id to drop a republished duplicate (JetStream's default). */
export const DUPLICATE_WINDOW_MS = 120_000;

/**
 * The stream WALLET holds the wallet's two subjects. wallet.dead moved to a stream of its own (DEAD_STREAM):
 * a WALLET that still lists it loses it here (its old dead letters stay in WALLET, passed over by the consumer,
 * until an operator purges them: docs/live-data.md).
 */
export async function ensureWalletStream(jsm: JetStreamManager): Promise<void> {
  const subjects: string[] = [...WALLET_EVENT_SUBJECTS];
  try {
    const info = await jsm.streams.info(WALLET_STREAM);
    const held = info.config.subjects ?? [];
    const missing = subjects.filter((s) => !held.includes(s));
    if (missing.length || held.includes(WALLET_SUBJECTS.dead)) {
      const kept = held.filter((s) => s !== WALLET_SUBJECTS.dead);
      await jsm.streams.update(WALLET_STREAM, { subjects: [...kept, ...missing] });
    }
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.status !== 404) throw error;
    await jsm.streams.add({
      name: WALLET_STREAM,
      subjects,
      storage: StorageType.File,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
  }
}

/**
 * The dead letters' stream: wallet.dead alone, each message kept `maxAgeMs` (they carry the events' personal
 * data). Created when missing, its max_age brought to the setting. Needs WALLET without wallet.dead first (two
 * streams may not share a subject): ensureWalletStream.
 */
export async function ensureDeadLetterStream(jsm: JetStreamManager, maxAgeMs: number): Promise<void> {
  const maxAge = nanos(maxAgeMs);
  try {
    const info = await jsm.streams.info(DEAD_STREAM);
    if (info.config.max_age !== maxAge) await jsm.streams.update(DEAD_STREAM, { max_age: maxAge });
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.status !== 404) throw error;
    await jsm.streams.add({
      name: DEAD_STREAM,
      subjects: [WALLET_SUBJECTS.dead],
      storage: StorageType.File,
      max_age: maxAge,
      duplicate_window: nanos(DUPLICATE_WINDOW_MS),
    });
  }
}

export interface ConsumerSettings {
  name: string;
  ackWaitMs: number;
  batchSize: number;
}

/**
 * A durable pull consumer over the whole stream (NATS 2.9 has no filter_subjects; the consumer skips the
 * wallet.dead messages an older WALLET may still hold): explicit acks, unlimited redeliveries (`max_deliver: -1`: an event is never dropped, a
 * consumer killed mid-batch gets it again after ack_wait), and room for two batches in flight.
 */
export async function ensureConsumer(jsm: JetStreamManager, settings: ConsumerSettings): Promise<void> {
  const config = {
    durable_name: settings.name,
    ack_policy: AckPolicy.Explicit,
    deliver_policy: DeliverPolicy.All,
    ack_wait: nanos(settings.ackWaitMs),
    max_deliver: -1,
    max_ack_pending: Math.max(2 * settings.batchSize, 1_000) * 2,
  };
  try {
    const info = await jsm.consumers.info(WALLET_STREAM, settings.name);
    if (info.config.ack_wait !== config.ack_wait || info.config.max_ack_pending !== config.max_ack_pending) {
      await jsm.consumers.update(WALLET_STREAM, settings.name, {
        ack_wait: config.ack_wait,
        max_ack_pending: config.max_ack_pending,
        max_deliver: -1,
      });
    }
  } catch (error) {
    if (!(error instanceof JetStreamApiError) || error.status !== 404) throw error;
    await jsm.consumers.add(WALLET_STREAM, config);
  }
}
