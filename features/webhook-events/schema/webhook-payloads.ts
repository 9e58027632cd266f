import { z } from "zod";
import { walletPlayerEventSchema, walletTransactionEventSchema } from "@/features/live";
import { kycStatusSchema } from "@/features/players";
import type { DecimalTree } from "@/platform/client/wire-codec";
import { playerIdSchema } from "@/platform/schemas/common";
import { dateTimeSchema, exactNumberSchema } from "../../../platform/schemas/common.ts";
import { decimalTree } from "../../../platform/schemas/decimal-tree.ts";

/*
 * Webhooks for the risk service (issue 26, docs/webhooks.md): the event types an endpoint subscribes to, the
 * envelope every delivery's body has, and each event's `data`. The single source of the payloads' shapes: the
 * OpenAPI document's `webhooks` section is generated from them and the tests parse every received body with them.
 */

export const WEBHOOK_EVENT_TYPES = [
  "player.kyc_status_changed",
  "player.blocked",
  "withdrawal.requested",
  "transaction.large",
  // The CRM's (issue 41): opt-in like the others, an endpoint gets only the types it lists.
  "player.created",
  "player.updated",
  "transaction.status_changed",
] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];
export const webhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES).meta({ id: "WebhookEventType" });

const envelope = <T extends WebhookEventType, D extends z.ZodType>(type: T, data: D, description: string) =>
  z
    .object({
      id: z.uuid().meta({
        description:
          "The event's id, the same on every attempt and replay (also the `webhook-id` header): dedupe on it.",
      }),
      type: z.literal(type),
      created_at: dateTimeSchema.meta({ description: "When the read model applied the event (UTC)." }),
      data,
    })
    .meta({ description });

export const kycStatusChangedDataSchema = z
  .object({
    player_id: playerIdSchema,
    kyc_status: kycStatusSchema,
    previous_kyc_status: kycStatusSchema,
    version: z.int().meta({ description: "The profile's version at the wallet that made the change." }),
  })
  .meta({ id: "WebhookKycStatusChangedData" });

export const playerBlockedDataSchema = z
  .object({
    player_id: playerIdSchema,
    blocked: z.boolean(),
    withdrawal_status: z.string().nullable(),
    previous_blocked: z.boolean(),
    previous_withdrawal_status: z.string().nullable(),
    version: z.int().meta({ description: "The profile's version at the wallet that made the change." }),
  })
  .meta({ id: "WebhookPlayerBlockedData" });

export const kycStatusChangedEventSchema = envelope(
  "player.kyc_status_changed",
  kycStatusChangedDataSchema,
  "A known player's KYC status changed.",
).meta({ id: "WebhookKycStatusChanged" });

export const playerBlockedEventSchema = envelope(
  "player.blocked",
  playerBlockedDataSchema,
  "A known player was blocked: `blocked` became true, or `withdrawal_status` changed to a value other than `allowed` and `on_hold` (e.g. `blocked`, `self_excluded`).",
).meta({ id: "WebhookPlayerBlocked" });

export const withdrawalRequestedEventSchema = envelope(
  "withdrawal.requested",
  walletTransactionEventSchema,
  "A withdrawal arrived in the read model as `pending` (its first version seen). `data` is the transaction as the wallet's event carries it.",
).meta({ id: "WebhookWithdrawalRequested" });

export const transactionLargeEventSchema = envelope(
  "transaction.large",
  walletTransactionEventSchema,
  "A transaction whose |amount| is at least the endpoint's `min_amount` arrived in the read model (its first version seen, whatever its status). `data` is the transaction as the wallet's event carries it.",
).meta({ id: "WebhookTransactionLarge" });

/** The profile's fields the wallet's event carries (not the balances and KPIs, which the read model derives). */
export const webhookProfileSchema = walletPlayerEventSchema
  .pick({
    id: true,
    name: true,
    email: true,
    phone: true,
    currency: true,
    language: true,
    registration_date: true,
    last_login: true,
    kyc_status: true,
    withdrawal_status: true,
    affiliate_name: true,
    affiliate_source: true,
    vip_manager: true,
    blocked: true,
    segments: true,
    settings: true,
    version: true,
  })
  .meta({
    id: "WebhookPlayerProfile",
    description:
      "The profile as the wallet's event carries it, after the change: contact data (PII) included.",
  });

export const playerCreatedDataSchema = z
  .object({
    player_id: playerIdSchema,
    version: z.int().meta({ description: "The profile's version at the wallet." }),
    profile: webhookProfileSchema,
  })
  .meta({ id: "WebhookPlayerCreatedData" });

export const playerUpdatedDataSchema = z
  .object({
    player_id: playerIdSchema,
    version: z.int().meta({ description: "The profile's version at the wallet that made the change." }),
    previous_version: z.int().meta({ description: "The version the read model held before." }),
    changed_fields: z.array(z.string()).min(1).meta({
      description:
        "The profile's fields whose value differs from the version before, by name (`settings.want_bonus` for a setting).",
    }),
    profile: webhookProfileSchema,
  })
  .meta({ id: "WebhookPlayerUpdatedData" });

export const transactionStatusChangedDataSchema = walletTransactionEventSchema
  .extend({
    previous_status: walletTransactionEventSchema.shape.status.meta({
      description: "The status before (`from`); `status` is the new one (`to`).",
    }),
  })
  .meta({ id: "WebhookTransactionStatusChangedData" });

export const playerCreatedEventSchema = envelope(
  "player.created",
  playerCreatedDataSchema,
  "A player the read model did not know arrived (its first version seen).",
).meta({ id: "WebhookPlayerCreated" });

export const playerUpdatedEventSchema = envelope(
  "player.updated",
  playerUpdatedDataSchema,
  "A later version of a known player's profile changed at least one field (`changed_fields`). Sent beside `player.kyc_status_changed` and `player.blocked` for the same change.",
).meta({ id: "WebhookPlayerUpdated" });

export const transactionStatusChangedEventSchema = envelope(
  "transaction.status_changed",
  transactionStatusChangedDataSchema,
  "A later version of a known transaction changed its status (from `previous_status` to `status`), e.g. a pending withdrawal completed, failed or cancelled.",
).meta({ id: "WebhookTransactionStatusChanged" });

export const webhookEventSchema = z
  .discriminatedUnion("type", [
    kycStatusChangedEventSchema,
    playerBlockedEventSchema,
    withdrawalRequestedEventSchema,
    transactionLargeEventSchema,
    playerCreatedEventSchema,
    playerUpdatedEventSchema,
    transactionStatusChangedEventSchema,
  ])
  .meta({ id: "WebhookEvent" });

/** Where a webhook body's exact decimals are (platform/client/wire-codec.ts's parseWire reads them so). */
export const WEBHOOK_DECIMALS: DecimalTree = decimalTree(webhookEventSchema) ?? {};

/** What an admin gives to add an endpoint (npm run webhooks -- add). */
export const webhookEndpointInputSchema = z.object({
  url: z.string().min(1),
  event_types: z.array(webhookEventTypeSchema).min(1),
  secret: z
    .string()
    .regex(/^whsec_[A-Za-z0-9+/]{32,88}={0,2}$/, "must be whsec_ followed by base64 (24 to 64 bytes)")
    .optional(),
  min_amount: exactNumberSchema.optional(),
  description: z.string().max(200).optional(),
});

/** What `npm run webhooks -- test <endpoint>` sends (not an event type an endpoint subscribes to). */
export const webhookPingSchema = z
  .object({
    id: z.uuid().meta({ description: "A fresh id per ping (also the `webhook-id` header)." }),
    type: z.literal("ping"),
    created_at: dateTimeSchema,
    data: z.object({ endpoint_id: z.string() }),
  })
  .meta({
    id: "WebhookPing",
    description: "A test an admin sends (npm run webhooks -- test): answer 2xx; nothing is retried.",
  });
