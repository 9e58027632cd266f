/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { livePaths } from "./openapi/live.ts";
export { changeEventSchema, feedEventSchema, renewEventSchema } from "./schema/live.ts";
export {
  DEAD_REASON_HEADER,
  DEAD_STREAM,
  DEAD_SUBJECT_HEADER,
  WALLET_EVENT_SUBJECTS,
  WALLET_STREAM,
  WALLET_SUBJECTS,
  walletPlayerEventSchema,
  walletTransactionEventSchema,
} from "./schema/wallet-events.ts";
