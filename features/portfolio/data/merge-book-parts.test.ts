import { describe, expect, it } from "vitest";
import { mergeBookParts } from "./merge-book-parts.ts";

const part = (...ids: string[]) => ({
  ids,
  players: ids.map((id) => `{"id":"${id}"}`),
  validUntil: ids.map((id) => Number(id.slice(1))),
});

describe("mergeBookParts", () => {
  it("interleaves parts ordered by id into one list in the same order, each player with its own JSON", () => {
    const merged = mergeBookParts([part("P1", "P4", "P5"), part("P2", "P3"), part()]);
    expect(merged.ids).toEqual(["P1", "P2", "P3", "P4", "P5"]);
    expect(merged.players).toEqual(merged.ids.map((id) => `{"id":"${id}"}`));
    expect(merged.validUntil).toEqual([1, 2, 3, 4, 5]);
  });

  it("orders as PostgreSQL's C collation does: by UTF-8 bytes, not by UTF-16 code units", () => {
    // U+FF21 (Ａ) sorts before U+1F600 (😀) in UTF-8 and in code points, after it in UTF-16 code units.
    const merged = mergeBookParts([part("\u{1F600}"), part("\uFF21"), part("Z", "a")]);
    expect(merged.ids).toEqual(["Z", "a", "\uFF21", "\u{1F600}"]);
  });

  it("returns an empty book for no parts or empty parts", () => {
    expect(mergeBookParts([])).toEqual({ ids: [], players: [], validUntil: [] });
    expect(mergeBookParts([part(), part()])).toEqual({ ids: [], players: [], validUntil: [] });
  });
});
