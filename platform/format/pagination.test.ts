import { describe, expect, it } from "vitest";
import { pageRangeText } from "./pagination.ts";

describe("pageRangeText", () => {
  it("names the rows shown and the total, with grouping", () => {
    expect(pageRangeText(2, 20, 20, 1234, "en-US")).toBe("41–60 of 1,234");
    expect(pageRangeText(0, 20, 20, 24000, "en-US")).toBe("1–20 of 24,000");
  });

  it("ends the last page at the total", () => {
    expect(pageRangeText(61, 20, 14, 1234, "en-US")).toBe("1,221–1,234 of 1,234");
  });

  it("says 0 when nothing is shown", () => {
    expect(pageRangeText(0, 20, 0, 0, "en-US")).toBe("0 of 0");
    expect(pageRangeText(99, 20, 0, 1234, "en-US")).toBe("0 of 1,234");
  });
});
