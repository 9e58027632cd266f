import type { AuditEvent, AuditOperation } from "@/features/audit/schema/audit";
import { AUDIT_OPERATION_ENTRIES, type AuditOperationEntry } from "@/platform/audit/audit-operations";
import type { TimeZoneChoice } from "@/platform/format/days";
import { formatDateTime } from "../../../platform/format/dates.ts";

/** The operation's words on the audit pages (its entry in platform/audit/audit-operations.ts). */
export function describeOperation(operation: AuditOperation): string {
  return AUDIT_OPERATION_ENTRIES[operation]?.label ?? operation;
}

/** "event_type=bet,win · limit=5"; "—" when the request had no parameters. */
export function describeFilters(filters: AuditEvent["filters"]): string {
  const parts = Object.entries(filters).map(([k, v]) => `${k}=${Array.isArray(v) ? v.join(",") : v}`);
  return parts.length ? parts.join(" · ") : "—";
}

/** To the second, in the page's time zone (the `tz` switch), like every other date on the page. */
export function formatAuditTime(iso: string, tz: TimeZoneChoice): string {
  return formatDateTime(iso, tz, true);
}

/** Who read, in words: the person's name with the token subject beside it, or the subject alone. */
export function describeReader(event: Pick<AuditEvent, "subject" | "subject_name">): {
  name: string;
  subject: string | null;
} {
  return event.subject_name
    ? { name: event.subject_name, subject: event.subject }
    : { name: event.subject, subject: null };
}

/** Reads this close to the first read of an entry belong to the same page view. */
export const PAGE_VIEW_WINDOW_MS = 2_000;

/** One row of the trail: one read, or the reads one page view made (newest first). */
export interface AuditEntry<E extends AuditEvent = AuditEvent> {
  /** The newest read's id: stable while older reads join the entry. */
  id: string;
  events: E[];
}

const viewKey = (e: AuditEvent) => JSON.stringify([e.subject, e.session_id, e.player_id]);

/**
 * Groups the reads of one page view: same subject, same session, same player, within `windowMs` of the
 * entry's newest read. Input and output are newest first. A read joins its view's open entry even when reads
 * of other people or players come between them (the admins' page interleaves them).
 */
export function groupAuditEvents<E extends AuditEvent>(
  events: readonly E[],
  windowMs: number = PAGE_VIEW_WINDOW_MS,
): AuditEntry<E>[] {
  const entries: AuditEntry<E>[] = [];
  const open = new Map<string, { entry: AuditEntry<E>; newest: number }>();
  for (const event of events) {
    const key = viewKey(event);
    const at = Date.parse(event.occurred_at);
    const current = open.get(key);
    if (current && current.newest - at <= windowMs) {
      current.entry.events.push(event);
      continue;
    }
    const entry = { id: event.id, events: [event] };
    entries.push(entry);
    open.set(key, { entry, newest: at });
  }
  return entries;
}

/** Where each kind of read sits in an entry's description: the order a page shows them, not of arrival. */
const kindRank = (op: AuditOperation): number => shortOf(op)?.rank ?? Number.MAX_SAFE_INTEGER;

function shortOf(op: AuditOperation): AuditOperationEntry["short"] {
  const entry: AuditOperationEntry | undefined = AUDIT_OPERATION_ENTRIES[op];
  return entry?.short;
}

/**
 * An entry in words. One read: its label. Several of one kind: the label and how many. Several kinds: what
 * the view was, then each kind in a fixed order (a page's reads run in parallel, so their order of arrival
 * means nothing): "Viewed the profile: profile, transactions, facets, activity".
 */
export function describeEntry(entry: AuditEntry): string {
  const [newest, ...more] = entry.events;
  if (!newest) return "";
  if (more.length === 0) return describeOperation(newest.operation);
  const kinds = [...new Set(entry.events.map((e) => e.operation))].sort((a, b) => kindRank(a) - kindRank(b));
  const [first] = kinds;
  if (kinds.length === 1 && first) return `${describeOperation(first)} (${entry.events.length} reads)`;
  const view = kinds.includes("profile")
    ? "Viewed the profile"
    : describeOperation(first ?? newest.operation);
  return `${view}: ${kinds.map((k) => shortOf(k)?.text ?? k).join(", ")}`;
}
