import { z } from "zod";
import type { ZodOpenApiOperationObject, ZodOpenApiPathsObject } from "zod-openapi";
import { playerEventsQuerySchema } from "@/features/live/schema/live";
import { SCOPES } from "@/platform/auth/scopes";
import {
  playerPath,
  rateLimitHeaders,
  readResponses,
  requestIdHeader,
  requires,
  sessionHeader,
} from "@/platform/openapi/operation-parts";

/*
 * The live stream of a player's changes (Server-Sent Events). The keys' order is their order in the
 * document.
 */

const LIVE_EXAMPLE = [
  "event: feed",
  'data: {"state":"live"}',
  "",
  "event: change",
  'data: {"player_id":"P000007"}',
  "",
  ": keep-alive",
  "",
].join("\n");

const streamPlayerChanges = {
  operationId: "streamPlayerChanges",
  tags: ["Players"],
  summary: "Follow a player's changes (Server-Sent Events)",
  description:
    "An addition for the back-office pages: a `text/event-stream` that nudges when the player's data changes (a transaction or profile applied by the ingest consumer), so the caller reads the profile, list or summary again; the nudge itself carries no player data. Events: `feed` (`LiveFeedEvent`: the feed's state, at once and at every change), `change` (`LiveChangeEvent`), `renew` (`LiveRenewEvent`: the stream ends by design after a few minutes, server setting LIVE_STREAM_MAX_SECONDS; open a new one, which checks the token again). A comment line every 15 s keeps it alive. Call it with `fetch` and the same headers as every read (a browser's EventSource cannot send them). Opening a stream is recorded in the audit trail as `live_updates`, once per stream; the nudges are not. One caller holds at most 8 streams (server setting): beyond it 429. No database notifications on this server (the embedded database, or LIVE_UPDATES=off): 503 with `Retry-After: 60`.",
  security: requires(SCOPES.playersRead),
  requestParams: { path: playerPath, query: playerEventsQuerySchema, header: sessionHeader },
  responses: readResponses(
    {
      description:
        "The stream: `event: feed`, `event: change` and `event: renew` lines, each with one JSON `data:` line.",
      headers: z.object({
        "X-Request-ID": requestIdHeader,
        "Cache-Control": z.literal("no-store, no-transform"),
        ...rateLimitHeaders,
      }),
      content: {
        "text/event-stream": {
          // The event payloads' schemas, named in components (document.ts): `contentSchema` (JSON Schema 2020-12)
          // describes the JSON of each event's `data:` line, the event's name picking the branch.
          schema: {
            type: "string",
            description:
              "Server-Sent Events; `data` is LiveFeedEvent, LiveChangeEvent or LiveRenewEvent by `event`.",
            contentMediaType: "application/json",
            contentSchema: {
              oneOf: [
                { $ref: "#/components/schemas/LiveFeedEvent" },
                { $ref: "#/components/schemas/LiveChangeEvent" },
                { $ref: "#/components/schemas/LiveRenewEvent" },
              ],
            },
          },
          example: LIVE_EXAMPLE,
        },
      },
    },
    "Invalid playerId, or any query parameter (it takes none).",
    { player: true, stream: true },
  ),
} satisfies ZodOpenApiOperationObject;

export const livePaths = {
  "/players/{playerId}/events": { get: streamPlayerChanges },
} satisfies ZodOpenApiPathsObject;
