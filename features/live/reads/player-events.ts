import { acquireLiveStreamSlot } from "@/features/live/data/live-stream-gate";
import { playerChangeEvents } from "@/features/live/data/player-change-events";
import { getPlayerChangeFeed } from "@/features/live/data/player-change-feed";
import { playerEventsQuerySchema } from "@/features/live/schema/live";
import { assertPlayerExists } from "@/features/players/server";
import { getEnv } from "@/platform/env/env";
import { closeConnection } from "@/platform/http/request-stamp.mjs";
import { sseResponse } from "@/platform/http/sse-response";
import { ApiError, PROBLEM_TYPES } from "@/platform/problems/problem";
import { playerIdSchema } from "@/platform/schemas/common";
import { defineStream } from "../../../platform/reads/read-definition.ts";

/**
 * GET /players/{playerId}/events: server-sent nudges when the player's data changes (the process's one LISTEN,
 * features/live). Audited once per stream, as `live_updates`; the stream holds one of the caller's live slots.
 */
export const playerEventsStream = defineStream({
  params: { playerId: playerIdSchema },
  query: playerEventsQuerySchema,
  open: async function playerEventsStream({ params: { playerId }, db, context }) {
    const { request, url, audit, requestId, caller } = context;
    const hub = getPlayerChangeFeed();
    if (hub.state === "unavailable") throw feedUnavailable();
    await assertPlayerExists({ playerId }, db);
    // Declared before the slot is taken: a read the audit cannot take (503) must not hold a slot it never uses.
    audit({ operation: "live_updates", playerId });
    const release = acquireLiveStreamSlot(caller);
    if (request.method === "HEAD") {
      release();
      return new Response(null, { status: 200, headers: { "Content-Type": "text/event-stream" } });
    }
    return sseResponse(playerChangeEvents({ playerId, hub }), {
      requestId,
      route: url.pathname,
      signal: request.signal,
      maxLifetimeMs: getEnv().LIVE_STREAM_MAX_SECONDS * 1_000,
      onDone: release,
      onCut: () => closeConnection(request.headers),
    });
  },
});

function feedUnavailable(): ApiError {
  return new ApiError({
    status: 503,
    type: PROBLEM_TYPES.unavailable,
    title: "Service unavailable",
    detail:
      "Live updates are unavailable on this server (no database notifications); the pages work without them.",
    headers: { "Retry-After": "60" },
  });
}
