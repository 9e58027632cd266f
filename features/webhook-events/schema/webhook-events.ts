import { z } from "zod";
import { dateTimeSchema, wholeNumberParam } from "../../../platform/schemas/common.ts";
import { webhookEventTypeSchema } from "./webhook-payloads.ts";

/*
 * GET /webhook-events (docs/webhooks.md): the webhook events sent in the last 30 days, by position, so a receiver
 * that was down pulls what it missed instead of asking an operator.
 */

export const WEBHOOK_EVENTS_DAYS = 30;
export const MAX_WEBHOOK_EVENTS_LIMIT = 500;
export const DEFAULT_WEBHOOK_EVENTS_LIMIT = 100;
const MAX_POSITION = Number.MAX_SAFE_INTEGER;

export const webhookEventsQuerySchema = z
  .strictObject({
    after: wholeNumberParam({ min: 0, max: MAX_POSITION, default: 0 }).meta({
      description:
        "List the events after this position: 0 (the default) for the oldest of the last 30 days, else the `next` of the previous answer.",
      param: { example: 0 },
      override: { type: "integer", minimum: 0, maximum: MAX_POSITION, default: 0 },
    }),
    endpoint_id: z
      .string()
      .regex(/^we_[0-9a-f-]{36}$/, "must be an endpoint id (we_…)")
      .optional()
      .meta({
        description: "Only this endpoint's events (its id, from `npm run webhooks -- list`).",
        param: { example: "we_0d6c3f0e-6a0b-4a57-9d3c-1f0e2d3c4b5a" },
      }),
    limit: wholeNumberParam({
      min: 1,
      max: MAX_WEBHOOK_EVENTS_LIMIT,
      default: DEFAULT_WEBHOOK_EVENTS_LIMIT,
    }).meta({
      description: `Events per page: 1 to ${MAX_WEBHOOK_EVENTS_LIMIT}.`,
      param: { example: DEFAULT_WEBHOOK_EVENTS_LIMIT },
      override: {
        type: "integer",
        minimum: 1,
        maximum: MAX_WEBHOOK_EVENTS_LIMIT,
        default: DEFAULT_WEBHOOK_EVENTS_LIMIT,
      },
    }),
  })
  .meta({ id: "WebhookEventsQuery" });

export const webhookAttemptSchema = z
  .object({
    attempt: z.int().meta({ description: "1 for the first; a replay continues the numbering from 1 again." }),
    attempted_at: dateTimeSchema,
    status_code: z.int().nullable().meta({ description: "The receiver's answer; null when none came." }),
    error: z
      .string()
      .nullable()
      .meta({ description: "Why it failed (`HTTP 503`, `timeout after 10000 ms`, `network error: …`)." }),
    latency_ms: z.int(),
  })
  .meta({ id: "WebhookAttempt" });

export const webhookEventRecordSchema = z
  .object({
    position: z.int().meta({
      description:
        "This delivery's place: increasing in the order the ingest committed the events (one batch at a time).",
    }),
    event_id: z.string().meta({ description: "The body's `id` and the `webhook-id` header: dedupe on it." }),
    type: webhookEventTypeSchema,
    endpoint_id: z.string(),
    endpoint_url: z.string().meta({
      description: "Where it is sent: the URL's scheme, host, port and path (its query string left out).",
    }),
    status: z.enum(["pending", "delivered", "failed"]).meta({
      description:
        "`pending` (being retried, or not tried yet), `delivered` (a 2xx), `failed` (retries exhausted).",
    }),
    created_at: dateTimeSchema.meta({ description: "When the event was written to the outbox." }),
    delivered_at: dateTimeSchema.nullable(),
    next_attempt_at: dateTimeSchema.nullable().meta({ description: "For a `pending` delivery; else null." }),
    attempts: z.array(webhookAttemptSchema).meta({ description: "Every attempt, oldest first." }),
    body: z.string().meta({
      description:
        "The body exactly as POSTed (JSON text, the bytes the signature covers): the same envelope and `data` as the `webhooks` section describes. Parse its `amount` with a decimal library.",
    }),
  })
  .meta({ id: "WebhookEventRecord" });

export const webhookEventsPageSchema = z
  .object({
    events: z.array(webhookEventRecordSchema),
    next: z
      .int()
      .meta({ description: "Pass as `after` for the next page (the same `after` when the page is empty)." }),
    has_more: z.boolean(),
  })
  .meta({ id: "WebhookEventsPage" });

export type WebhookEventsPage = z.infer<typeof webhookEventsPageSchema>;
export type WebhookEventRecord = z.infer<typeof webhookEventRecordSchema>;
