"use client";

import { ChevronDown, ChevronRight } from "lucide-react";
import { Fragment, type ReactNode, useMemo } from "react";
import { type AuditEntry, describeEntry, groupAuditEvents } from "@/features/audit/client/audit-labels";
import type { AuditEventData } from "@/features/audit/client/queries";
import { useRowDetails } from "@/features/transactions/client";
import type { TimeZoneChoice } from "@/platform/format/days";
import { cn } from "@/platform/ui/cn";
import { useMediaQuery } from "@/platform/ui/hooks/use-media-query";
import { useTimeZone } from "@/platform/ui/hooks/use-time-zone";
import { ScrollRegion } from "../../../platform/ui/scroll-region.tsx";
import { type AuditColumn, auditColumns } from "./audit-columns.tsx";

/**
 * The loaded reads as a table, one row per page view (reads of one subject, session and player within 2 s,
 * see groupAuditEvents) with an expander listing each read. Grouping runs over every page loaded so far, so
 * an entry cut by a page end grows when the next page arrives, and rows already shown keep their place.
 * Times follow the page's time-zone switch (`tz`). Below the `md` breakpoint the same columns are stacked
 * as one card per entry: seven columns do not fit a phone, and a table scrolling sideways hides who read what.
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
  const details = useRowDetails();
  const entries = useMemo(() => groupAuditEvents(events), [events]);
  const columns = auditColumns({ withPlayer });
  const wide = useMediaQuery("(min-width: 768px)", true);

  // Nothing to list: say so plainly, outside a table wider than a phone (where a centred cell is cut off).
  if (empty !== null && entries.length === 0) {
    return <p className="px-4 py-6 text-center text-sm text-slate-600">{empty}</p>;
  }
  const rows: AuditRow[] = entries.flatMap((entry) => {
    const event = entry.events[0];
    if (!event) return [];
    return [{ entry, event, expanded: details.isOpen(entry.id), onToggle: () => details.toggle(entry.id) }];
  });
  return wide ? (
    <WideTable rows={rows} columns={columns} caption={caption} tz={tz} />
  ) : (
    <StackedCards rows={rows} columns={columns} caption={caption} tz={tz} />
  );
}

interface AuditRow {
  entry: AuditEntry<AuditEventData>;
  event: AuditEventData;
  expanded: boolean;
  onToggle: () => void;
}

/** An entry's cell of `column`, the same in the table and in a card. */
function entryCell(column: AuditColumn, { entry, event, expanded, onToggle }: AuditRow, tz: TimeZoneChoice) {
  return column.cell({
    entry,
    event,
    tz,
    what: <What entry={entry} expanded={expanded} onToggle={onToggle} />,
  });
}

interface LayoutProps {
  rows: AuditRow[];
  columns: readonly AuditColumn[];
  caption: string;
  tz: TimeZoneChoice;
}

function WideTable({ rows, columns, caption, tz }: LayoutProps) {
  return (
    <ScrollRegion aria-label={caption}>
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
          {rows.map((row) => (
            <Fragment key={row.entry.id}>
              <tr className="border-t border-slate-100 align-top" data-testid="audit-entry">
                {columns.map((column) => (
                  <td
                    key={column.id}
                    className={cn("px-4 py-2", column.className)}
                    title={column.title?.(row.event)}
                  >
                    {entryCell(column, row, tz)}
                  </td>
                ))}
              </tr>
              {row.expanded
                ? row.entry.events.map((read) => (
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
          ))}
        </tbody>
      </table>
    </ScrollRegion>
  );
}

/** The phone layout: each entry a card of label–value pairs, its reads listed inside it when expanded. */
function StackedCards({ rows, columns, caption, tz }: LayoutProps) {
  return (
    <section aria-label={caption}>
      <ul className="divide-y divide-slate-100 border-t border-slate-100">
        {rows.map((row) => (
          <li key={row.entry.id} className="px-4 py-3 text-sm" data-testid="audit-entry">
            <dl className={PAIRS}>
              {columns.map((column) => (
                <Pair key={column.id} column={column} title={column.title?.(row.event)}>
                  {entryCell(column, row, tz)}
                </Pair>
              ))}
            </dl>
            {row.expanded ? (
              <ul className="mt-2 space-y-2">
                {row.entry.events.map((read) => (
                  <li
                    key={read.id}
                    id={`audit-read-${read.id}`}
                    className="rounded-md bg-slate-50 px-3 py-2 text-slate-700"
                    data-testid="audit-read"
                  >
                    <dl className={PAIRS}>
                      {columns.map((column) => {
                        const value = column.read(read, tz);
                        return value === null ? null : (
                          <Pair key={column.id} column={column} title={column.title?.(read)}>
                            {value}
                          </Pair>
                        );
                      })}
                    </dl>
                  </li>
                ))}
              </ul>
            ) : null}
          </li>
        ))}
      </ul>
    </section>
  );
}

const PAIRS = "grid grid-cols-[5.5rem_minmax(0,1fr)] gap-x-3 gap-y-1";

function Pair({ column, title, children }: { column: AuditColumn; title?: string; children: ReactNode }) {
  return (
    <div className="contents">
      <dt className="text-xs uppercase tracking-wide text-slate-600">{column.header}</dt>
      {/* The table's widths do not apply in a card: long values wrap instead of being cut. */}
      <dd className={cn(column.className, "min-w-0 max-w-none whitespace-normal break-words")} title={title}>
        {children}
      </dd>
    </div>
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
