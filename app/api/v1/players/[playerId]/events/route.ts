import { getEnv } from "@/lib/env";
import { readRoute } from "@/lib/http/api-handler";
import { acquireLiveStreamSlot } from "@/lib/http/live-stream-gate";
import { parsePathParam, parseQuery } from "@/lib/http/query";
import { closeConnection } from "@/lib/http/request-stamp.mjs";
import { sseResponse } from "@/lib/http/sse-response";
import { playerChangeEvents } from "@/lib/live/player-change-events";
import { getPlayerChangeFeed } from "@/lib/live/player-change-feed";
import { assertPlayerExists } from "@/lib/players/assert-player-exists";
import { ApiError, PROBLEM_TYPES } from "@/lib/problems/problem";
import { playerIdSchema } from "@/lib/schemas/common";
import { playerEventsQuerySchema } from "@/lib/schemas/live";

export const dynamic = "force-dynamic";

export const { GET, POST, PUT, PATCH, DELETE, OPTIONS } = readRoute<{ playerId: string }>(
  async function playerEventsRoute({ request, params, url, audit, requestId, caller }) {
    const playerId = parsePathParam(playerIdSchema, "playerId", params.playerId);
    parseQuery(playerEventsQuerySchema, url.searchParams);
    const hub = getPlayerChangeFeed();
    if (hub.state === "unavailable") throw feedUnavailable();
    await assertPlayerExists({ playerId });
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
);

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
