import type { ClientBase } from "pg";
import type { WebhookEventType } from "@/features/webhook-events/schema/webhook-payloads";
import { ENQUEUE_PLAYER_EVENTS_SQL, ENQUEUE_TRANSACTION_EVENTS_SQL } from "./outbox-sql.ts";

/*
 * Called by the ingest batch (workers/ingest/apply-batch.ts) inside its transaction, before the profiles and the
 * transactions are written: see outbox-sql.ts. Each returns the number of deliveries written. With no active
 * endpoint subscribed, the statement is not even sent: PostgreSQL folds the batch's `$1::jsonb` (~250 kB for 1,000
 * transactions) while planning, which cost ~40 ms a batch on a loaded machine even when nothing was written.
 */

export interface EnqueueWebhooksOptions {
  /** The JSON array the batch writes (the same records as the upsert's). */
  recordsJson: string;
}

const PLAYER_TYPES: readonly WebhookEventType[] = [
  "player.kyc_status_changed",
  "player.blocked",
  "player.created",
  "player.updated",
];
const TRANSACTION_TYPES: readonly WebhookEventType[] = [
  "withdrawal.requested",
  "transaction.large",
  "transaction.status_changed",
];

/** Whether an active endpoint subscribes to any of the types (a look at a tiny table). */
async function anySubscribed(client: ClientBase, types: readonly WebhookEventType[]): Promise<boolean> {
  const { rows } = await client.query<{ any: boolean }>({
    name: "webhooks-any-subscribed",
    text: "SELECT EXISTS (SELECT 1 FROM webhook_endpoints WHERE active AND event_types && $1::text[]) AS any",
    values: [types],
  });
  return rows[0]?.any === true;
}

async function enqueue(client: ClientBase, name: string, text: string, recordsJson: string): Promise<number> {
  const { rowCount } = await client.query({ name, text, values: [recordsJson] });
  return rowCount ?? 0;
}

export async function enqueuePlayerWebhooks(
  options: EnqueueWebhooksOptions,
  client: ClientBase,
): Promise<number> {
  if (!(await anySubscribed(client, PLAYER_TYPES))) return 0;
  return enqueue(client, "webhooks-enqueue-players", ENQUEUE_PLAYER_EVENTS_SQL, options.recordsJson);
}

export async function enqueueTransactionWebhooks(
  options: EnqueueWebhooksOptions,
  client: ClientBase,
): Promise<number> {
  if (!(await anySubscribed(client, TRANSACTION_TYPES))) return 0;
  return enqueue(
    client,
    "webhooks-enqueue-transactions",
    ENQUEUE_TRANSACTION_EVENTS_SQL,
    options.recordsJson,
  );
}
