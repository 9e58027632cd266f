import { describe, expect, it } from "vitest";
import { median } from "./median.ts";

describe("median", () => {
  it("takes the middle value, or the mean of the middle two, of unsorted values; refuses none", () => {
    expect(median([90, 40, 70])).toBe(70);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([5])).toBe(5);
    expect(() => median([])).toThrow();
  });
});
