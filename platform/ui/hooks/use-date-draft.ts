"use client";

import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { type DraftInput, decideDraft, type HistoryMode } from "@/platform/client/date-draft";

/**
 * A date input over a day in the URL: its text is kept here while typed and committed by decideDraft's rule
 * (a complete day, or the edit's end), so typing a year adds no history entry per keystroke.
 */
export function useDateDraft(
  committed: string | null,
  commit: (day: string | null, history: HistoryMode) => void,
) {
  const [text, setText] = useState(committed ?? "");
  const pushed = useRef(false);
  const focused = useRef(false);
  // Back, Forward, a preset or "Clear all" change the URL's day: show it unless the user is typing here.
  useEffect(() => {
    if (!focused.current) setText(committed ?? "");
  }, [committed]);

  const apply = (next: string, moment: DraftInput["moment"]) => {
    const decision = decideDraft({ text: next, committed, pushed: pushed.current, moment });
    if (decision.kind === "commit") {
      commit(decision.day, decision.history);
      pushed.current = true;
    } else if (decision.kind === "revert") setText(committed ?? "");
  };

  return {
    value: text,
    onFocus: () => {
      focused.current = true;
      pushed.current = false;
    },
    onChange: (next: string) => {
      setText(next);
      apply(next, "typing");
    },
    onBlur: () => {
      focused.current = false;
      apply(text, "done");
    },
    onKeyDown: (event: KeyboardEvent<HTMLInputElement>) => {
      if (event.key === "Enter") apply(text, "done");
    },
  };
}
