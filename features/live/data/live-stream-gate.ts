import { getEnv } from "@/platform/env/env";
import { ApiError, PROBLEM_TYPES, serviceUnavailable } from "@/platform/problems/problem";

const g = globalThis as unknown as { parLiveStreamsByCaller?: Map<string, number>; parLiveStreams?: number };

function tooManyStreams(limit: number): ApiError {
  return new ApiError({
    status: 429,
    type: PROBLEM_TYPES.rateLimited,
    title: "Too many requests",
    detail: `This caller already has ${limit} live-update stream${limit === 1 ? "" : "s"} open; close one (a page) first.`,
    headers: { "Retry-After": "30" },
  });
}

/**
 * Counts a live-update stream in; the returned function counts it out (once). A stream holds a connection for
 * minutes, so one caller (`caller`: the token subject, else the client address) holds at most
 * LIVE_STREAMS_PER_CALLER (429 beyond: a loop opening streams cannot take the server's sockets), and the process
 * at most LIVE_MAX_STREAMS (503 beyond).
 */
export function acquireLiveStreamSlot(caller: string): () => void {
  const env = getEnv();
  g.parLiveStreamsByCaller ??= new Map();
  const byCaller = g.parLiveStreamsByCaller;
  const mine = byCaller.get(caller) ?? 0;
  if (mine >= env.LIVE_STREAMS_PER_CALLER) throw tooManyStreams(env.LIVE_STREAMS_PER_CALLER);
  const total = g.parLiveStreams ?? 0;
  if (total >= env.LIVE_MAX_STREAMS) {
    throw serviceUnavailable("This server holds as many live-update streams as it may; try again shortly.");
  }
  byCaller.set(caller, mine + 1);
  g.parLiveStreams = total + 1;
  let left = false;
  return () => {
    if (left) return;
    left = true;
    g.parLiveStreams = Math.max(0, (g.parLiveStreams ?? 1) - 1);
    const now = (byCaller.get(caller) ?? 1) - 1;
    if (now > 0) byCaller.set(caller, now);
    else byCaller.delete(caller);
  };
}

/** Streams open per caller and in total (tests; a leak shows here). */
export function liveStreamCounts(): { total: number; callers: number } {
  return { total: g.parLiveStreams ?? 0, callers: g.parLiveStreamsByCaller?.size ?? 0 };
}
