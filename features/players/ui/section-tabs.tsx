"use client";

import { type KeyboardEvent, useRef } from "react";
import { type PlayerSection, tabAfterKey } from "@/features/players/client/player-sections";
import { humanize } from "@/platform/format/labels";
import { cn } from "@/platform/ui/cn";

export const sectionTabId = (s: PlayerSection) => `section-tab-${s}`;
export const sectionPanelId = (s: PlayerSection) => `section-panel-${s}`;

/**
 * The WAI-ARIA tabs pattern with automatic activation: one tab stop (roving tabindex), arrow keys, Home
 * and End move and select. Each tab is also a link to its URL, so middle-click and copy-link work.
 */
export function SectionTabs({
  sections,
  current,
  onSelect,
  onIntent,
  hrefFor,
}: {
  sections: readonly PlayerSection[];
  current: PlayerSection;
  onSelect: (section: PlayerSection) => void;
  /** The pointer reached a tab: a click is likely, so its code can start loading. */
  onIntent?: (section: PlayerSection) => void;
  hrefFor: (section: PlayerSection) => string;
}) {
  const tabs = useRef(new Map<PlayerSection, HTMLAnchorElement>());

  function move(event: KeyboardEvent, from: number) {
    const next = tabAfterKey(sections, from, event.key);
    if (!next) return;
    event.preventDefault();
    onSelect(next);
    tabs.current.get(next)?.focus();
  }

  return (
    <div role="tablist" aria-label="Player sections" className="-mb-px flex gap-1 overflow-x-auto">
      {sections.map((section, i) => {
        const selected = section === current;
        return (
          <a
            key={section}
            ref={(el) => {
              if (el) tabs.current.set(section, el);
              else tabs.current.delete(section);
            }}
            role="tab"
            id={sectionTabId(section)}
            href={hrefFor(section)}
            aria-selected={selected}
            // Only the shown panel exists, so only the selected tab points at one.
            aria-controls={selected ? sectionPanelId(section) : undefined}
            tabIndex={selected ? 0 : -1}
            data-testid={`section-tab-${section}`}
            onClick={(event) => {
              if (event.metaKey || event.ctrlKey || event.shiftKey || event.button !== 0) return;
              event.preventDefault();
              onSelect(section);
            }}
            onKeyDown={(event) => move(event, i)}
            onPointerEnter={() => onIntent?.(section)}
            onPointerDown={() => onIntent?.(section)}
            className={cn(
              "whitespace-nowrap border-b-2 px-2.5 py-2 text-sm sm:px-3 font-medium focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-indigo-600",
              selected
                ? "border-indigo-600 text-indigo-800"
                : "border-transparent text-slate-700 hover:border-slate-300 hover:text-slate-900",
            )}
          >
            {humanize(section)}
          </a>
        );
      })}
    </div>
  );
}
