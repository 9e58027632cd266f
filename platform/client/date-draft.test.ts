import { describe, expect, it } from "vitest";
import { decideDraft } from "./date-draft.ts";

const typing = { committed: null, pushed: false, moment: "typing" } as const;

describe("decideDraft: a date reaches the URL only when complete", () => {
  it("waits through the years Chromium reports while a year is typed, then commits the full day once", () => {
    for (const text of ["0002-11-01", "0020-11-01", "0202-11-01", "1899-12-31", ""]) {
      expect(decideDraft({ ...typing, text }), text).toEqual({ kind: "wait" });
    }
    expect(decideDraft({ ...typing, text: "2026-11-01" })).toEqual({
      kind: "commit",
      day: "2026-11-01",
      history: "push",
    });
  });

  it("replaces the entry this edit added: one edit, one Back step", () => {
    expect(decideDraft({ ...typing, text: "2026-11-15", committed: "2026-11-01", pushed: true })).toEqual({
      kind: "commit",
      day: "2026-11-15",
      history: "replace",
    });
    expect(decideDraft({ ...typing, text: "2026-11-01", committed: "2026-11-01", pushed: true })).toEqual({
      kind: "wait",
    });
  });

  it("at blur or Enter: an empty input clears the filter, a half-typed one shows the URL's day again", () => {
    const done = { moment: "done", pushed: false } as const;
    expect(decideDraft({ ...done, text: "", committed: "2026-11-01" })).toEqual({
      kind: "commit",
      day: null,
      history: "push",
    });
    expect(decideDraft({ ...done, text: "", committed: null })).toEqual({ kind: "wait" });
    expect(decideDraft({ ...done, text: "0202-11-01", committed: "2026-11-01" })).toEqual({ kind: "revert" });
    expect(decideDraft({ ...done, text: "2026-02-30", committed: null })).toEqual({ kind: "revert" });
    expect(decideDraft({ ...done, text: "2026-02-28", committed: null })).toMatchObject({ kind: "commit" });
  });
});
