/**
 * The in-process fan-out of player-change nudges: one database listener feeds it, every open event stream
 * subscribes to the one player its page shows. Subscribing and publishing cost a map lookup; a subscriber that
 * throws is logged by the caller's listener, never breaks the others.
 */

/** Whether nudges can arrive: `connecting` (first attempt or after a loss), `live`, `unavailable`. */
export type FeedState = "connecting" | "live" | "unavailable";

export type ChangeListener = (playerId: string) => void;
export type StateListener = (state: FeedState) => void;

export class PlayerChangeHub {
  private readonly byPlayer = new Map<string, Set<ChangeListener>>();
  private readonly stateListeners = new Set<StateListener>();
  private current: FeedState = "connecting";

  get state(): FeedState {
    return this.current;
  }

  /** Listeners registered for changes, over all players (a leak shows here). */
  get subscriberCount(): number {
    let n = 0;
    for (const set of this.byPlayer.values()) n += set.size;
    return n;
  }

  /** Players with at least one listener. */
  get playerCount(): number {
    return this.byPlayer.size;
  }

  get stateListenerCount(): number {
    return this.stateListeners.size;
  }

  /** Calls `listener` for each change of `playerId`; the returned function unsubscribes (idempotent). */
  subscribe(playerId: string, listener: ChangeListener): () => void {
    let set = this.byPlayer.get(playerId);
    if (!set) {
      set = new Set();
      this.byPlayer.set(playerId, set);
    }
    set.add(listener);
    let done = false;
    return () => {
      if (done) return;
      done = true;
      const now = this.byPlayer.get(playerId);
      if (!now) return;
      now.delete(listener);
      if (now.size === 0) this.byPlayer.delete(playerId);
    };
  }

  /** Calls `listener` at every change of the feed's state; the returned function unsubscribes. */
  onState(listener: StateListener): () => void {
    this.stateListeners.add(listener);
    return () => {
      this.stateListeners.delete(listener);
    };
  }

  /** Nudges the listeners of each named player; returns how many listeners were called. */
  publish(playerIds: readonly string[]): number {
    let called = 0;
    for (const id of playerIds) {
      const set = this.byPlayer.get(id);
      if (!set) continue;
      // A copy: a listener may unsubscribe (its stream closed) while being called.
      for (const listener of [...set]) {
        called += 1;
        safely(() => listener(id));
      }
    }
    return called;
  }

  setState(state: FeedState): void {
    if (state === this.current) return;
    this.current = state;
    for (const listener of [...this.stateListeners]) safely(() => listener(state));
  }
}

function safely(call: () => void): void {
  try {
    call();
  } catch {
    // One broken stream must not keep the nudge from the others; the stream's own code logs its failures.
  }
}
