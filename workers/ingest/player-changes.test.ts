import { describe, expect, it } from "vitest";
import { PLAYER_CHANGES_MAX_BYTES, playerChangePayloads } from "./player-changes.ts";

describe("playerChangePayloads", () => {
  it("is one JSON array for a few ids, each id once", () => {
    expect(playerChangePayloads(["P000007", "P000012", "P000007"])).toEqual(['["P000007","P000012"]']);
    expect(playerChangePayloads([])).toEqual([]);
  });

  it("splits many ids into payloads of at most 7,000 bytes that together hold every id in order", () => {
    const ids = Array.from({ length: 3_000 }, (_, i) => `P${String(i).padStart(6, "0")}`);
    const payloads = playerChangePayloads(ids);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThanOrEqual(PLAYER_CHANGES_MAX_BYTES);
    expect(payloads.flatMap((p) => JSON.parse(p) as string[])).toEqual(ids);
  });

  it("counts bytes, not characters, and fills a payload up to the bound exactly", () => {
    const ids = ["ÄÄÄ", "ÖÖÖ", "ÜÜÜ"]; // 6 bytes each, 8 quoted
    expect(playerChangePayloads(ids, 2 + 8 + 1 + 8)).toEqual(['["ÄÄÄ","ÖÖÖ"]', '["ÜÜÜ"]']);
    expect(() => playerChangePayloads(["x".repeat(20)], 10)).toThrow(/too long/);
  });
});
