import { describe, expect, it } from "vitest";
import { csvField, csvRow } from "./csv.ts";

describe("baseline CSV", () => {
  it("leaves plain fields alone and writes null as empty", () => {
    expect(csvRow(["T1", "-12.50000000", null, undefined, 3])).toBe("T1,-12.50000000,,,3\r\n");
  });

  it("quotes fields with commas, quotes and line breaks, doubling the quotes", () => {
    expect(csvField('Bonus "Gold", tier 2')).toBe('"Bonus ""Gold"", tier 2"');
    expect(csvField("line\nbreak")).toBe('"line\nbreak"');
    expect(csvField("cr\rhere")).toBe('"cr\rhere"');
  });

  it("writes dates as UTC ISO 8601", () => {
    expect(csvField(new Date(Date.UTC(2026, 0, 31, 23, 59, 59, 5)))).toBe("2026-01-31T23:59:59.005Z");
  });
});
