"use client";

import { formatDateTime, formatRelative, timeZoneLabel } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";

/** An absolute date in the page's time zone, with the relative time after it. */
export function DateValue({
  iso,
  tz,
  empty = "Never",
}: {
  iso: string | null;
  tz: TimeZoneChoice;
  empty?: string;
}) {
  if (!iso) return <span className="text-slate-600">{empty}</span>;
  return (
    <span>
      <time dateTime={iso} title={`${formatDateTime(iso, tz, true)} ${timeZoneLabel(tz)}`}>
        {formatDateTime(iso, tz)}
      </time>
      <span className="block text-xs text-slate-600">{formatRelative(iso)}</span>
    </span>
  );
}
