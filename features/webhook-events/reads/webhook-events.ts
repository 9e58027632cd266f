import { listWebhookEvents } from "@/features/webhook-events/data/list-webhook-events";
import { webhookEventsQuerySchema } from "@/features/webhook-events/schema/webhook-events";
import { SCOPES } from "@/platform/auth/scopes";
import type { NextPage } from "@/platform/http/next-link";
import { defineRead } from "../../../platform/reads/read-definition.ts";

/**
 * GET /webhook-events: what was sent to the webhook endpoints in the last 30 days, each body as sent. Needs
 * `webhooks:read` (no role carries it: an admin grants it to a receiver's token). The bodies carry what the
 * events carry (a CRM type's `profile` holds contact data, unmasked, as its receiver got it), nothing more: no
 * secret, no URL query. Audited as `webhook_events`, with the players the page's bodies name.
 */
export const webhookEventsRead = defineRead({
  scope: SCOPES.webhooksRead,
  params: {},
  query: webhookEventsQuerySchema,
  run: async function webhookEventsRead({ query, db }) {
    const page = await listWebhookEvents(
      { after: query.after, limit: query.limit, endpointId: query.endpoint_id },
      db,
    );
    const players = new Set<string>();
    for (const e of page.events) {
      const data = (JSON.parse(e.body) as { data?: { player_id?: unknown } }).data;
      if (typeof data?.player_id === "string") players.add(data.player_id);
    }
    return {
      body: page,
      audit: { operation: "webhook_events", playerId: null, resultPlayerIds: [...players] },
    };
  },
  next: (body): NextPage => (body.has_more ? { after: String(body.next) } : null),
});
