"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { Fragment, useMemo, useState } from "react";
import { useTimeZone } from "@/components/player/time-zone-switch";
import type { AuditEventData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { type AuditEntry, describeEntry, groupAuditEvents } from "@/lib/format/audit";
import { auditColumns } from "./audit-columns.tsx";

/**
 * The loaded reads as a table, one row per page view (reads of one subject, session and player within 2 s,
 * see groupAuditEvents) with an expander listing each read. Grouping runs over every page loaded so far, so
 * an entry cut by a page end grows when the next page arrives, and rows already shown keep their place.
 * Times follow the page's time-zone switch (`tz`).
 */
export function AuditTable({
  events,
  caption,
  withPlayer,
  empty,
}: {
  events: AuditEventData[];
  caption: string;
  withPlayer: boolean;
  /** Shown in place of rows when nothing was loaded (null while loading). */
  empty: string | null;
}) {
  const [tz] = useTimeZone();
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const entries = useMemo(() => groupAuditEvents(events), [events]);
  const columns = auditColumns({ withPlayer });
  const toggle = (id: string) =>
    setOpen((was) => {
      const next = new Set(was);
      if (!next.delete(id)) next.add(id);
      return next;
    });

  // Nothing to list: say so plainly, outside a table wider than a phone (where a centred cell is cut off).
  if (empty !== null && entries.length === 0) {
    return <p className="px-4 py-6 text-center text-sm text-slate-600">{empty}</p>;
  }
  return (
    // Focusable and named: on a phone the table scrolls sideways, and keyboard users must reach that too.
    <section
      aria-label={caption}
      // biome-ignore lint/a11y/noNoninteractiveTabindex: scrollable regions must be reachable by keyboard
      tabIndex={0}
      className="overflow-x-auto focus-visible:outline-2 focus-visible:outline-indigo-600"
    >
      <table className="w-full text-left text-sm">
        <caption className="sr-only">{caption}</caption>
        <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
          <tr>
            {columns.map((column) => (
              <th key={column.id} scope="col" className="px-4 py-2">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {entries.map((entry) => {
            const event = entry.events[0];
            if (!event) return null;
            const expanded = open.has(entry.id);
            const what = <What entry={entry} expanded={expanded} onToggle={() => toggle(entry.id)} />;
            return (
              <Fragment key={entry.id}>
                <tr className="border-t border-slate-100 align-top" data-testid="audit-entry">
                  {columns.map((column) => (
                    <td
                      key={column.id}
                      className={cn("px-4 py-2", column.className)}
                      title={column.title?.(event)}
                    >
                      {column.cell({ entry, event, tz, what })}
                    </td>
                  ))}
                </tr>
                {expanded
                  ? entry.events.map((read) => (
                      <tr
                        key={read.id}
                        id={`audit-read-${read.id}`}
                        className="bg-slate-50 align-top text-slate-700"
                        data-testid="audit-read"
                      >
                        {columns.map((column) => (
                          <td
                            key={column.id}
                            className={cn("px-4 py-1.5", column.className)}
                            title={column.title?.(read)}
                          >
                            {column.read(read, tz)}
                          </td>
                        ))}
                      </tr>
                    ))
                  : null}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </section>
  );
}

function What({
  entry,
  expanded,
  onToggle,
}: {
  entry: AuditEntry<AuditEventData>;
  expanded: boolean;
  onToggle: () => void;
}) {
  const label = describeEntry(entry);
  if (entry.events.length === 1) return label;
  const Icon = expanded ? ChevronDown : ChevronRight;
  return (
    <>
      <span className="block">{label}</span>
      <button
        type="button"
        aria-expanded={expanded}
        aria-controls={entry.events.map((e) => `audit-read-${e.id}`).join(" ")}
        onClick={onToggle}
        className="mt-1 inline-flex items-center gap-1 rounded text-xs font-medium text-indigo-700 hover:underline focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600"
      >
        <Icon aria-hidden="true" className="size-3.5" />
        {expanded ? "Hide" : "Show"} the {entry.events.length} reads
      </button>
    </>
  );
}
