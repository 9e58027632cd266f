import { describe, expect, it } from "vitest";
import { storableRow } from "./storable-text.ts";

const row = (subject_name: string, filters: Record<string, string> = {}) => ({
  subject_name,
  filters,
  text_replaced: false,
});

describe("storableRow", () => {
  it("leaves well-formed text alone, pairs and astral characters included", () => {
    const r = row("Zoé 😀 Côté", { q: "müller" });
    expect(storableRow(r)).toBe(r);
  });

  it("replaces unpaired surrogates and NUL, in values and keys, and says so", () => {
    const got = storableRow(row("a\uD800b\uDC00c\u0000", { "k\uDFFF": "\uD83D" }));
    expect(got).toEqual({
      subject_name: "a\uFFFDb\uFFFDc\uFFFD",
      filters: { "k\uFFFD": "\uFFFD" },
      text_replaced: true,
    });
    expect(JSON.stringify(got)).not.toMatch(/\\u(0000|d[89a-f])/i);
  });

  it("keeps a reversed pair apart: low then high is two lone surrogates", () => {
    expect(storableRow(row("\uDC00\uD800")).subject_name).toBe("\uFFFD\uFFFD");
  });
});
