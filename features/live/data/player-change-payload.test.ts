import { describe, expect, it } from "vitest";
import { MAX_PAYLOAD_BYTES, parsePlayerChangePayload } from "./player-change-payload.ts";

describe("parsePlayerChangePayload", () => {
  it("reads the contract's JSON array of player ids, each once", () => {
    expect(parsePlayerChangePayload('["P000007","P000012"]')).toEqual(["P000007", "P000012"]);
    expect(parsePlayerChangePayload('["P000007","P000007"]')).toEqual(["P000007"]);
    expect(parsePlayerChangePayload("[]")).toEqual([]);
  });

  it.each([
    ["no payload", undefined],
    ["empty", ""],
    ["not JSON", "P000007"],
    ["truncated JSON", '["P000007"'],
    ["an object", '{"player_id":"P000007"}'],
    ["a bare string", '"P000007"'],
    ["a number in the list", '["P000007", 7]'],
    ["an empty id", '["P000007", ""]'],
    ["a control character in an id", '["P0\\u0000"]'],
    ["an id over 64 characters", JSON.stringify(["P".repeat(65)])],
    ["null", "null"],
  ])("drops a bad payload whole: %s", (_name, payload) => {
    expect(parsePlayerChangePayload(payload)).toBeNull();
  });

  it("drops a payload over PostgreSQL's limit without parsing it", () => {
    const ids = Array.from({ length: 1_000 }, (_, i) => `P${String(i).padStart(6, "0")}`);
    const big = JSON.stringify(ids);
    expect(big.length).toBeGreaterThan(MAX_PAYLOAD_BYTES);
    expect(parsePlayerChangePayload(big)).toBeNull();
    // At the contract's size (≤ 7,000 bytes) it is read.
    const fits = JSON.stringify(ids.slice(0, 600));
    expect(fits.length).toBeLessThanOrEqual(7_000);
    expect(parsePlayerChangePayload(fits)).toHaveLength(600);
  });
});
