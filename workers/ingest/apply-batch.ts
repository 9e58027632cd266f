import type { ClientBase } from "pg";
import type { WalletPlayerEvent, WalletTransactionEvent } from "@/features/live/schema/wallet-events";
import { enqueuePlayerWebhooks, enqueueTransactionWebhooks } from "@/workers/webhooks/outbox";
import {
  APPLY_PLAYER_DELTAS_SQL,
  BATCH_LOCK_SQL,
  KNOWN_PLAYERS_SQL,
  NOTIFY_SQL,
  type PlayerDelta,
  RECORD_PROGRESS_SQL,
  UPSERT_PLAYERS_SQL,
  UPSERT_TRANSACTIONS_SQL,
} from "./apply-sql.ts";
import { PLAYER_CHANGES_CHANNEL, playerChangePayloads } from "./player-changes.ts";

/** The last event of a batch, for the progress row. */
export interface BatchProgress {
  consumer: string;
  streamSeq: number;
  subject: string;
  eventId: string;
  publishedAt: Date;
  applied: number;
  dead: number;
}

export interface ApplyBatchOptions {
  /** Profiles, at most one per id (its highest version in the batch). */
  players: WalletPlayerEvent[];
  /** Transactions, at most one per id (its highest version in the batch). */
  transactions: WalletTransactionEvent[];
  progress: BatchProgress | null;
  /** Whether a transaction of an unknown player has waited long enough to go to wallet.dead (counted as dead). */
  deadIfWaiting?: (transactionId: string) => boolean;
}

export interface ApplyBatchResult {
  /** Transactions of players the read model does not know (yet): not applied, to be retried later. */
  waiting: Set<string>;
  /** Players whose profile or figures changed (signalled on player_changes at commit). */
  changedPlayers: string[];
  /** Rows written (versions that were new); the rest of the batch were duplicates or older versions. */
  written: { players: number; transactions: number };
}

/**
 * A profile event as the players table's flat columns (PLAYER_EVENT_COLUMNS): its settings spread out; balances,
 * KPIs and the first deposit are derived from the transactions, not taken.
 */
function playerRecord({ balances, kpi, ftd_date, settings, ...columns }: WalletPlayerEvent) {
  return { ...columns, ...settings };
}

/** The deltas as APPLY_PLAYER_DELTAS_SQL's parameters: one array per column, the sums as exact decimal text. */
const deltaColumns = (rows: PlayerDelta[]) => [
  rows.map((r) => r.id),
  rows.map((r) => r.cash),
  rows.map((r) => r.bonus),
  rows.map((r) => r.pending_w),
  rows.map((r) => r.ltd),
  rows.map((r) => r.ltw),
  rows.map((r) => r.bets),
];

/** A transaction event as a JSON record; the amount keeps its digits (a JSON string PostgreSQL reads as numeric). */
const transactionRecord = (t: WalletTransactionEvent) => ({ ...t, amount: t.amount.digits });

/**
 * One batch in one database transaction (the caller's BEGIN/COMMIT): profiles first, so a transaction of a player
 * that arrives in the same batch is applied; then the transactions of known players; then their players' deltas
 * and lookup KPIs (one update per player), the progress row and the player_changes notifications (delivered at
 * COMMIT). The webhook outbox rows (workers/webhooks/outbox.ts) are written in the same transaction, before the rows
 * they announce.
 */
export async function applyBatch(client: ClientBase, options: ApplyBatchOptions): Promise<ApplyBatchResult> {
  await client.query(BATCH_LOCK_SQL);
  const changed = new Set<string>();
  let writtenPlayers = 0;
  if (options.players.length) {
    const recordsJson = JSON.stringify(options.players.map(playerRecord));
    // Webhook outbox rows first: they compare each profile with the row it is about to replace.
    await enqueuePlayerWebhooks({ recordsJson }, client);
    const { rows } = await client.query<{ id: string }>(UPSERT_PLAYERS_SQL, [recordsJson]);
    writtenPlayers = rows.length;
    for (const r of rows) changed.add(r.id);
  }
  const waiting = new Set<string>();
  let writtenTransactions = 0;
  if (options.transactions.length) {
    const ids = [...new Set(options.transactions.map((t) => t.player_id))];
    const known = new Set(
      (await client.query<{ id: string }>(KNOWN_PLAYERS_SQL, [ids])).rows.map((r) => r.id),
    );
    const ready = options.transactions.filter((t) => {
      if (known.has(t.player_id)) return true;
      waiting.add(t.id);
      return false;
    });
    if (ready.length) {
      const recordsJson = JSON.stringify(ready.map(transactionRecord));
      await enqueueTransactionWebhooks({ recordsJson }, client);
      const { rows } = await client.query<PlayerDelta>(UPSERT_TRANSACTIONS_SQL, [recordsJson]);
      writtenTransactions = rows.reduce((n, r) => n + r.written, 0);
      if (rows.length) await client.query(APPLY_PLAYER_DELTAS_SQL, deltaColumns(rows));
      for (const r of rows) changed.add(r.id);
    }
  }
  const p = options.progress;
  if (p) {
    const deadWaiting = [...waiting].filter((id) => options.deadIfWaiting?.(id) ?? false).length;
    await client.query(RECORD_PROGRESS_SQL, [
      p.consumer,
      p.streamSeq,
      p.subject,
      p.eventId,
      p.publishedAt,
      p.applied - waiting.size,
      p.dead + deadWaiting,
    ]);
  }
  const changedPlayers = [...changed];
  for (const payload of playerChangePayloads(changedPlayers)) {
    await client.query(NOTIFY_SQL, [PLAYER_CHANGES_CHANNEL, payload]);
  }
  return { waiting, changedPlayers, written: { players: writtenPlayers, transactions: writtenTransactions } };
}
