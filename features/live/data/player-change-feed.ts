import "server-only";
import { getPrisma } from "@/platform/db/client";
import { type NotificationListener, startNotificationListener } from "@/platform/db/notification-listener";
import { getEnv } from "@/platform/env/env";
import { log } from "@/platform/log/log";
import { PlayerChangeHub } from "./player-change-hub.ts";
import { PLAYER_CHANGES_CHANNEL, parsePlayerChangePayload } from "./player-change-payload.ts";

interface Feed {
  hub: PlayerChangeHub;
  listener: NotificationListener | null;
}

const g = globalThis as unknown as { parPlayerChangeFeed?: Feed };

/** A bad payload is logged at most this often: a producer that sends only garbage must not flood the log. */
const BAD_PAYLOAD_LOG_INTERVAL_MS = 60_000;

/**
 * The process's one feed of player changes: a hub fed by one LISTEN connection (started on first use, kept for
 * the life of the process). Without a database URL or with LIVE_UPDATES=off it is `unavailable` and nothing
 * connects.
 */
export function getPlayerChangeFeed(): PlayerChangeHub {
  if (g.parPlayerChangeFeed) return g.parPlayerChangeFeed.hub;
  const env = getEnv();
  const hub = new PlayerChangeHub();
  const feed: Feed = { hub, listener: null };
  g.parPlayerChangeFeed = feed;
  if (!env.DATABASE_URL || env.LIVE_UPDATES === "off") {
    hub.setState("unavailable");
    return hub;
  }
  let badPayloads = 0;
  let lastBadLog = 0;
  feed.listener = startNotificationListener({
    url: env.DATABASE_URL,
    channel: PLAYER_CHANGES_CHANNEL,
    onPayload: (payload) => {
      const ids = parsePlayerChangePayload(payload);
      if (ids) {
        hub.publish(ids);
        return;
      }
      badPayloads += 1;
      if (Date.now() - lastBadLog >= BAD_PAYLOAD_LOG_INTERVAL_MS) {
        lastBadLog = Date.now();
        log.warn("live updates: ignored notifications that are not a JSON array of player ids", {
          channel: PLAYER_CHANGES_CHANNEL,
          ignoredSoFar: badPayloads,
        });
      }
    },
    onState: (state) => {
      if (state !== hub.state) log.info("live updates: feed state", { state });
      hub.setState(state);
    },
    notify: async (channel, payload) => {
      await getPrisma().$executeRaw`SELECT pg_notify(${channel}, ${payload})`;
    },
  });
  return hub;
}

/**
 * Whether pages should follow their player: false when this server has no feed (the embedded PGlite, no
 * database URL, LIVE_UPDATES=off), so the page makes no request that can only be refused.
 */
export function isPlayerChangeFeedAvailable(): boolean {
  return getPlayerChangeFeed().state !== "unavailable";
}

/** Closes the listener (on shutdown; tests). The next getPlayerChangeFeed starts a new one. */
export async function stopPlayerChangeFeed(): Promise<void> {
  const feed = g.parPlayerChangeFeed;
  g.parPlayerChangeFeed = undefined;
  if (!feed) return;
  feed.hub.setState("unavailable");
  await feed.listener?.stop();
}
