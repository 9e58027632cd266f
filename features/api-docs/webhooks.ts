import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  kycStatusChangedEventSchema,
  playerBlockedEventSchema,
  playerCreatedEventSchema,
  playerUpdatedEventSchema,
  transactionLargeEventSchema,
  transactionStatusChangedEventSchema,
  type WebhookEventType,
  webhookPingSchema,
  withdrawalRequestedEventSchema,
} from "@/features/webhook-events";

/*
 * The OpenAPI 3.1 `webhooks` section: what this service POSTs to the risk service's endpoints (docs/webhooks.md).
 * One entry per event type, the body's schema from features/webhook-events/schema/webhook-payloads.ts, with an example.
 */

const signatureHeaders = z.object({
  "webhook-id": z
    .string()
    .meta({ description: "The event's id (the body's `id`): the same on every attempt." }),
  "webhook-timestamp": z.string().meta({ description: "Unix seconds when this attempt was signed." }),
  "webhook-signature": z.string().meta({
    description:
      'Standard Webhooks: `v1,` + base64(HMAC-SHA256(base64-decoded secret after `whsec_`, "<webhook-id>.<webhook-timestamp>.<raw body>")). Verify over the raw bytes; refuse timestamps more than 5 minutes away.',
  }),
});

const transactionExample = {
  id: "T000123456",
  player_id: "P000042",
  date: "2026-11-26T08:15:00.000Z",
  event_type: "withdrawal",
  event_name: "Bank Withdrawal",
  event_note: null,
  amount: -15000,
  currency: "EUR",
  payment_method: "bank_transfer",
  created_by: "System",
  created_at: "2026-11-26T08:15:00.000Z",
  completed_at: null,
  status: "pending",
  version: 1,
};

const profileExample = {
  id: "P000042",
  name: "Ada Example",
  email: "ada@example.com",
  phone: "+441632960001",
  currency: "EUR",
  language: "English",
  registration_date: "2026-01-05T10:00:00.000Z",
  last_login: "2026-11-26T08:00:00.000Z",
  kyc_status: "approved",
  withdrawal_status: "allowed",
  affiliate_name: null,
  affiliate_source: null,
  vip_manager: null,
  blocked: false,
  segments: [],
  settings: {
    marketing_email_subscription: false,
    email_validation: true,
    email_account_activation: null,
    marketing_sms_subscription: false,
    sms_validation: false,
    sms_account_activation: null,
    want_bonus: true,
  },
  version: 9,
};

const envelope = (type: WebhookEventType | "ping", data: Record<string, unknown>) => ({
  id: "3f2b8c1e-5d4a-3b7c-8e9f-0a1b2c3d4e5f",
  type,
  created_at: "2026-11-26T08:15:00.412Z",
  data,
});

function webhook(
  type: WebhookEventType | "ping",
  schema: z.ZodType,
  example: unknown,
  summary: string,
  description = `Sent to every active endpoint subscribed to \`${type}\` (\`npm run webhooks -- add --events ${type}\`). At least once: dedupe on \`id\`. Answer 2xx within 10 s; anything else is retried with exponential backoff for 72 hours (docs/webhooks.md).`,
) {
  const operation = {
    operationId: `webhook_${type.replace(/\./g, "_")}`,
    tags: ["Webhooks"],
    summary,
    description,
    security: [],
    requestParams: { header: signatureHeaders },
    requestBody: {
      required: true,
      content: { "application/json": { schema, examples: { example: { value: example } } } },
    },
    responses: {
      "200": { description: "Received (any 2xx): the delivery is done." },
      default: { description: "Anything else (or no answer within the timeout): the delivery is retried." },
    },
  } satisfies ZodOpenApiOperationObject;
  return { post: operation };
}

export const webhookOperations = {
  "player.kyc_status_changed": webhook(
    "player.kyc_status_changed",
    kycStatusChangedEventSchema,
    envelope("player.kyc_status_changed", {
      player_id: "P000042",
      kyc_status: "rejected",
      previous_kyc_status: "in_review",
      version: 7,
    }),
    "A player's KYC status changed",
  ),
  "player.blocked": webhook(
    "player.blocked",
    playerBlockedEventSchema,
    envelope("player.blocked", {
      player_id: "P000042",
      blocked: true,
      withdrawal_status: "self_excluded",
      previous_blocked: false,
      previous_withdrawal_status: "allowed",
      version: 8,
    }),
    "A player was blocked or self-excluded",
  ),
  "withdrawal.requested": webhook(
    "withdrawal.requested",
    withdrawalRequestedEventSchema,
    envelope("withdrawal.requested", transactionExample),
    "A withdrawal was requested (arrived pending)",
  ),
  "transaction.large": webhook(
    "transaction.large",
    transactionLargeEventSchema,
    envelope("transaction.large", transactionExample),
    "A transaction at or above the endpoint's threshold arrived",
  ),
  "player.created": webhook(
    "player.created",
    playerCreatedEventSchema,
    envelope("player.created", {
      player_id: "P000042",
      version: 1,
      profile: { ...profileExample, version: 1 },
    }),
    "A new player arrived",
  ),
  "player.updated": webhook(
    "player.updated",
    playerUpdatedEventSchema,
    envelope("player.updated", {
      player_id: "P000042",
      version: 9,
      previous_version: 8,
      changed_fields: ["email", "settings.want_bonus"],
      profile: profileExample,
    }),
    "A player's profile changed",
  ),
  "transaction.status_changed": webhook(
    "transaction.status_changed",
    transactionStatusChangedEventSchema,
    envelope("transaction.status_changed", {
      ...transactionExample,
      status: "completed",
      completed_at: "2026-11-26T09:00:00.000Z",
      version: 2,
      previous_status: "pending",
    }),
    "A transaction's status changed",
  ),
  ping: webhook(
    "ping",
    webhookPingSchema,
    envelope("ping", { endpoint_id: "we_0d6c3f0e-6a0b-4a57-9d3c-1f0e2d3c4b5a" }),
    "A test an admin sent",
    "Sent once, now, by `npm run webhooks -- test <endpoint>`, signed as a delivery is: answer 2xx. Not stored, not retried, whatever the endpoint subscribes to.",
  ),
} satisfies ZodOpenApiPathsObject;
