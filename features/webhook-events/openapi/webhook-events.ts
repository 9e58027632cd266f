import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import {
  webhookEventsPageSchema,
  webhookEventsQuerySchema,
} from "@/features/webhook-events/schema/webhook-events";
import { SCOPES } from "@/platform/auth/scopes";
import { ok, paged, readHeaders, readResponses, requires } from "@/platform/openapi/operation-parts";

/* What the webhooks sent (docs/webhooks.md): a receiver that was down pulls what it missed. */

const pageExample = {
  events: [
    {
      position: 1041,
      event_id: "3f2b8c1e-5d4a-3b7c-8e9f-0a1b2c3d4e5f",
      type: "transaction.status_changed",
      endpoint_id: "we_0d6c3f0e-6a0b-4a57-9d3c-1f0e2d3c4b5a",
      endpoint_url: "https://crm.example.com/hooks/wallet",
      status: "delivered",
      created_at: "2026-11-26T09:00:00.412Z",
      delivered_at: "2026-11-26T09:20:41.007Z",
      next_attempt_at: null,
      attempts: [
        {
          attempt: 1,
          attempted_at: "2026-11-26T09:00:00.530Z",
          status_code: 503,
          error: "HTTP 503",
          latency_ms: 41,
        },
        {
          attempt: 2,
          attempted_at: "2026-11-26T09:20:40.981Z",
          status_code: 200,
          error: null,
          latency_ms: 26,
        },
      ],
      body: '{"id":"3f2b8c1e-5d4a-3b7c-8e9f-0a1b2c3d4e5f","type":"transaction.status_changed","created_at":"2026-11-26T09:00:00.412Z","data":{"id":"T000123456","player_id":"P000042","date":"2026-11-26T08:15:00.000Z","event_type":"withdrawal","event_name":"Bank Withdrawal","event_note":null,"amount":-15000,"currency":"EUR","payment_method":"bank_transfer","created_by":"System","created_at":"2026-11-26T08:15:00.000Z","completed_at":"2026-11-26T09:00:00.000Z","status":"completed","version":2,"previous_status":"pending"}}',
    },
  ],
  next: 1041,
  has_more: false,
};

const listWebhookEvents = {
  operationId: "listWebhookEvents",
  tags: ["Webhooks"],
  security: requires(SCOPES.webhooksRead),
  summary: "List the webhook events sent in the last 30 days",
  description:
    "What this service sent to its webhook endpoints in the last 30 days, oldest first: each event's body exactly as POSTed, the endpoint (its id and URL without the query string) and every attempt's status, so a receiver that was down can pull what it missed instead of asking an operator. Follow it by passing each answer's `next` as `after`; an empty page returns the same `next`. Positions increase in the order the events were committed, so a poller skips none; a delivery's `status` and `attempts` are as of the read (read it again for later attempts). Dedupe on `event_id` with what was received by POST. Needs `webhooks:read`, which no role carries: an admin grants it in a token's `scope`. The bodies hold what the events hold (a `player.*` CRM event's `profile` carries contact data, unmasked, as its receiver got it), never a secret. Each page is recorded in the audit trail as `webhook_events`, with the players its bodies name. See docs/webhooks.md.",
  requestParams: { query: webhookEventsQuerySchema, header: readHeaders },
  responses: readResponses(
    paged(
      ok(
        "A page of webhook events after `after`. While `has_more`, `Link` names the next page (`after` = `next`, the filters kept).",
        webhookEventsPageSchema,
        pageExample,
      ),
    ),
    "Invalid `after`, `endpoint_id` or `limit`.",
  ),
} satisfies ZodOpenApiOperationObject;

export const webhookEventPaths = {
  "/webhook-events": { get: listWebhookEvents },
} satisfies ZodOpenApiPathsObject;
