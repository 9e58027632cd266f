import { describe, expect, it } from "vitest";
import { PlayerChangeHub } from "./player-change-hub.ts";

describe("PlayerChangeHub", () => {
  it("nudges only the subscribers of the named players, once per listener", () => {
    const hub = new PlayerChangeHub();
    const seen: string[] = [];
    hub.subscribe("P1", (id) => seen.push(`a:${id}`));
    hub.subscribe("P1", (id) => seen.push(`b:${id}`));
    hub.subscribe("P2", (id) => seen.push(`c:${id}`));
    expect(hub.publish(["P1", "P3"])).toBe(2);
    expect(seen).toEqual(["a:P1", "b:P1"]);
  });

  it("unsubscribes (idempotently) and forgets a player with no listener left", () => {
    const hub = new PlayerChangeHub();
    const seen: string[] = [];
    const off = hub.subscribe("P1", (id) => seen.push(id));
    const offOther = hub.subscribe("P1", () => {});
    expect(hub.subscriberCount).toBe(2);
    off();
    off();
    expect(hub.subscriberCount).toBe(1);
    offOther();
    expect(hub.subscriberCount).toBe(0);
    expect(hub.playerCount).toBe(0);
    expect(hub.publish(["P1"])).toBe(0);
    expect(seen).toEqual([]);
  });

  it("the same function subscribed for two players is two subscriptions", () => {
    const hub = new PlayerChangeHub();
    const seen: string[] = [];
    const listener = (id: string) => seen.push(id);
    const offA = hub.subscribe("P1", listener);
    hub.subscribe("P2", listener);
    offA();
    hub.publish(["P1", "P2"]);
    expect(seen).toEqual(["P2"]);
  });

  it("a listener that throws or unsubscribes while called does not stop the others", () => {
    const hub = new PlayerChangeHub();
    const seen: string[] = [];
    const off = hub.subscribe("P1", () => {
      off();
      throw new Error("broken stream");
    });
    hub.subscribe("P1", () => seen.push("second"));
    expect(hub.publish(["P1"])).toBe(2);
    expect(seen).toEqual(["second"]);
    expect(hub.subscriberCount).toBe(1);
  });

  it("reports state changes once each, to current state listeners only", () => {
    const hub = new PlayerChangeHub();
    const states: string[] = [];
    const off = hub.onState((s) => states.push(s));
    expect(hub.state).toBe("connecting");
    hub.setState("live");
    hub.setState("live");
    hub.setState("connecting");
    off();
    hub.setState("unavailable");
    expect(states).toEqual(["live", "connecting"]);
    expect(hub.state).toBe("unavailable");
    expect(hub.stateListenerCount).toBe(0);
  });
});
