import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  kycStatusChangedEventSchema,
  playerBlockedEventSchema,
  transactionLargeEventSchema,
  type WebhookEventType,
  withdrawalRequestedEventSchema,
} from "@/lib/schemas/webhooks";

/*
 * The OpenAPI 3.1 `webhooks` section: what this service POSTs to the risk service's endpoints (docs/webhooks.md).
 * One entry per event type, the body's schema from lib/schemas/webhooks.ts, with an example.
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

const envelope = (type: WebhookEventType, data: Record<string, unknown>) => ({
  id: "3f2b8c1e-5d4a-3b7c-8e9f-0a1b2c3d4e5f",
  type,
  created_at: "2026-11-26T08:15:00.412Z",
  data,
});

function webhook(type: WebhookEventType, schema: z.ZodType, example: unknown, summary: string) {
  const operation = {
    operationId: `webhook_${type.replace(/\./g, "_")}`,
    tags: ["Webhooks"],
    summary,
    description: `Sent to every active endpoint subscribed to \`${type}\` (\`npm run webhooks -- add --events ${type}\`). At least once: dedupe on \`id\`. Answer 2xx within 10 s; anything else is retried with exponential backoff (docs/webhooks.md).`,
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
} satisfies ZodOpenApiPathsObject;
