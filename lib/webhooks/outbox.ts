import type { ClientBase } from "pg";
import { ENQUEUE_PLAYER_EVENTS_SQL, ENQUEUE_TRANSACTION_EVENTS_SQL } from "./outbox-sql.ts";

/*
 * Called by the ingest batch (lib/ingest/apply-batch.ts) inside its transaction, before the profiles and the
 * transactions are written: see outbox-sql.ts. Each returns the number of deliveries written.
 */

export interface EnqueueWebhooksOptions {
  /** The JSON array the batch writes (the same records as the upsert's). */
  recordsJson: string;
}

export async function enqueuePlayerWebhooks(
  options: EnqueueWebhooksOptions,
  client: ClientBase,
): Promise<number> {
  const { rowCount } = await client.query(ENQUEUE_PLAYER_EVENTS_SQL, [options.recordsJson]);
  return rowCount ?? 0;
}

export async function enqueueTransactionWebhooks(
  options: EnqueueWebhooksOptions,
  client: ClientBase,
): Promise<number> {
  const { rowCount } = await client.query(ENQUEUE_TRANSACTION_EVENTS_SQL, [options.recordsJson]);
  return rowCount ?? 0;
}
