import type { TimeZoneChoice } from "@/lib/format/days";
import type { AuditEvent, AuditOperation } from "@/lib/schemas/audit";
import { formatDateTime } from "./dates.ts";

const OPERATION_LABELS: Record<AuditOperation, string> = {
  profile: "Viewed profile",
  transactions: "Listed transactions",
  search: "Found in a search",
  export: "Exported transactions",
  transaction_facets: "Viewed the transaction filter values",
  monthly_activity: "Viewed the monthly activity",
  summary: "Viewed the period summary",
  live_updates: "Followed live updates",
  changes: "Named in the change feed",
  profiles_export: "Exported in a profiles export",
  transactions_bulk: "Transactions copied by a bulk read",
  portfolio: "Listed in a VIP manager's portfolio",
  transaction_totals: "Viewed the transaction totals",
  audit_trail: "Viewed the audit trail",
  webhook_events: "Named in the webhook events read",
};

/** The short names a grouped page view lists its reads by. */
const OPERATION_SHORT: Partial<Record<AuditOperation, string>> = {
  profile: "profile",
  transactions: "transactions",
  search: "search",
  export: "export",
  transaction_facets: "facets",
  monthly_activity: "activity",
  summary: "summary",
  live_updates: "live updates",
  changes: "change feed",
  profiles_export: "profiles export",
  transactions_bulk: "bulk transactions",
  portfolio: "portfolio",
  transaction_totals: "totals",
  audit_trail: "audit trail",
};

export function describeOperation(operation: AuditOperation): string {
  return OPERATION_LABELS[operation] ?? operation;
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
const KIND_ORDER: readonly AuditOperation[] = Object.keys(OPERATION_SHORT) as AuditOperation[];
const kindRank = (op: AuditOperation) => {
  const i = KIND_ORDER.indexOf(op);
  return i === -1 ? KIND_ORDER.length : i;
};

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
  return `${view}: ${kinds.map((k) => OPERATION_SHORT[k] ?? k).join(", ")}`;
}
