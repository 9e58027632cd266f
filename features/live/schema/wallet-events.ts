import { z } from "zod";
import { TRANSACTION_STATUSES } from "@/features/transactions";
import {
  importPlayerSchema,
  importTransactionObject,
  type LineResult,
  parsePlayerWith,
  parseTransactionWith,
  STATUS_AGREES_MESSAGE,
  statusAgrees,
} from "./import-line.ts";

/*
 * The wallet's events (issue 24, docs/live-data.md): the contract between the wallet and `npm run ingest`, built
 * from the very schemas of db:import's lines (which are the API's shapes), so an event and a line of an import
 * file are the same record plus a `version`. The AsyncAPI document (features/api-docs/asyncapi.ts) is generated from
 * these schemas.
 */

export const WALLET_STREAM = "WALLET";
export const WALLET_SUBJECTS = {
  transaction: "wallet.transaction",
  player: "wallet.player",
  dead: "wallet.dead",
} as const;
/** The wallet's own subjects, held by WALLET. */
export const WALLET_EVENT_SUBJECTS = [WALLET_SUBJECTS.transaction, WALLET_SUBJECTS.player];
/**
 * The dead letters' stream (wallet.dead alone): a stream of its own so that they can expire (max_age) while the
 * wallet's events are kept; they hold the events' personal data.
 */
export const DEAD_STREAM = "WALLET_DEAD";
/** Header of a dead-lettered event: why it could not be applied. */
export const DEAD_REASON_HEADER = "Reason";
/** Header of a dead-lettered event: the subject it was published on. */
export const DEAD_SUBJECT_HEADER = "Original-Subject";

const versionSchema = z.int().min(1).max(2_147_483_647).meta({
  description:
    "Grows with each change of this record at the wallet. The read model keeps the highest version it has seen: duplicates, redeliveries and older versions arriving late change nothing.",
});

export const walletTransactionEventSchema = importTransactionObject
  .extend({
    status: z.enum(TRANSACTION_STATUSES).meta({
      description:
        "`pending`, `completed` (then `completed_at` is set), `failed` or `cancelled`. A later version of the same `id` is a state change.",
    }),
    version: versionSchema,
  })
  .refine(statusAgrees, { path: ["status"], message: STATUS_AGREES_MESSAGE })
  .meta({
    id: "WalletTransactionEvent",
    description:
      "One transaction exactly as a line of db:import's transactions file (`player_id` and the API's fields), with `status` and `version`. Header `Nats-Msg-Id: <id>:<version>`.",
  });
export type WalletTransactionEvent = z.infer<typeof walletTransactionEventSchema>;

export const walletPlayerEventSchema = importPlayerSchema.extend({ version: versionSchema }).meta({
  id: "WalletPlayerEvent",
  description:
    "One profile exactly as a line of db:import's players file, with `version`. Its balances and KPIs are validated and ignored: the read model derives them from the transactions. Header `Nats-Msg-Id: <id>:<version>`.",
});
export type WalletPlayerEvent = z.infer<typeof walletPlayerEventSchema>;

export const parseWalletTransaction = (text: string): LineResult<WalletTransactionEvent> =>
  parseTransactionWith(text, walletTransactionEventSchema);

export const parseWalletPlayer = (text: string): LineResult<WalletPlayerEvent> =>
  parsePlayerWith(text, walletPlayerEventSchema);

/** The message id the wallet publishes an event under: the stream drops a repeat within its duplicate window. */
export const walletMsgId = (event: { id: string; version: number }) => `${event.id}:${event.version}`;
