/** What other features may use of this feature (docs/architecture.md): its public surface on the server. */
export { webhookEventPaths } from "./openapi/webhook-events.ts";
export type { WebhookEventType } from "./schema/webhook-payloads.ts";
export {
  kycStatusChangedEventSchema,
  playerBlockedEventSchema,
  playerCreatedEventSchema,
  playerUpdatedEventSchema,
  transactionLargeEventSchema,
  transactionStatusChangedEventSchema,
  webhookPingSchema,
  withdrawalRequestedEventSchema,
} from "./schema/webhook-payloads.ts";
