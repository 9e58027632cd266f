import type { SseSource } from "@/platform/http/sse-response";
import type { PlayerChangeHub } from "./player-change-hub.ts";

export interface PlayerChangeEventsOptions {
  playerId: string;
  hub: PlayerChangeHub;
}

/**
 * The events of one player's stream: `feed` (the feed's state, at once and at every change), `change` (the
 * player's data changed: read it again). A nudge names only the player the caller asked about, never what
 * changed. When the feed becomes unavailable the stream ends, and the page says its updates are paused.
 */
export function playerChangeEvents({ playerId, hub }: PlayerChangeEventsOptions): SseSource {
  return (emit) => {
    emit.send("feed", { state: hub.state });
    const offChange = hub.subscribe(playerId, () => emit.send("change", { player_id: playerId }));
    const offState = hub.onState((state) => {
      emit.send("feed", { state });
      if (state === "unavailable") emit.close();
    });
    return () => {
      offChange();
      offState();
    };
  };
}
