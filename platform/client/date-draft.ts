import { isDay } from "@/platform/format/days";

/** How a change reaches the address: a new history entry, or in place of the current one. */
export type HistoryMode = "push" | "replace";

/** What a date input's text means for the URL at a moment of the edit. */
export type DraftDecision =
  /** Put this day (or no day) in the URL, as a new entry or in place of the one this edit already added. */
  | { kind: "commit"; day: string | null; history: HistoryMode }
  /** Nothing to commit yet: the text is a day being typed (Chromium reports year 0002, 0020, 0202 on the way). */
  | { kind: "wait" }
  /** The edit ended on text that is no day: show the URL's day again. */
  | { kind: "revert" };

export interface DraftInput {
  /** The input's value: `YYYY-MM-DD` or "" (Chromium gives "" while a part is empty). */
  text: string;
  /** The day in the URL now. */
  committed: string | null;
  /** Whether this edit (since the input took focus) already added a history entry. */
  pushed: boolean;
  /** `typing`: a keystroke or picker change; `done`: blur or Enter. */
  moment: "typing" | "done";
}

/**
 * A date filter reaches the URL only as a complete, valid day (isDay: year 1900 or later), so a half-typed year
 * never becomes an address Back returns to. The first commit of an edit adds one history entry; later ones in the
 * same edit replace it, so one edit is one Back step. While typing, an empty value is a part being retyped, not a
 * cleared filter; at blur or Enter it clears the filter.
 */
export function decideDraft({ text, committed, pushed, moment }: DraftInput): DraftDecision {
  const history: HistoryMode = pushed ? "replace" : "push";
  if (isDay(text)) return text === committed ? { kind: "wait" } : { kind: "commit", day: text, history };
  if (moment === "typing") return { kind: "wait" };
  if (text === "") return committed === null ? { kind: "wait" } : { kind: "commit", day: null, history };
  return { kind: "revert" };
}
