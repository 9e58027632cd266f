import Link from "next/link";
import type { ReactNode } from "react";
import {
  type AuditEntry,
  describeFilters,
  describeOperation,
  describeReader,
  formatAuditTime,
} from "@/features/audit/client/audit-labels";
import type { AuditEventData } from "@/features/audit/client/queries";
import type { TimeZoneChoice } from "@/platform/format/days";

/** What every cell gets: the row's entry (one read or a page view's reads) and how to show times. */
export interface AuditCellContext {
  entry: AuditEntry<AuditEventData>;
  /** The entry's newest read. */
  event: AuditEventData;
  tz: TimeZoneChoice;
  /** The entry's "What": its description and, for a page view, the expander. */
  what: ReactNode;
}

/** One column of the audit trail: its heading, its cell and the cell's classes (width, wrapping, type). */
export interface AuditColumn {
  id: string;
  header: string;
  className: string;
  cell: (c: AuditCellContext) => ReactNode;
  /** The same column in the expanded list of a page view's reads (empty when the entry's row says it). */
  read: (e: AuditEventData, tz: TimeZoneChoice) => ReactNode;
  /** Shown on hover where the cell truncates. */
  title?: (e: AuditEventData) => string;
}

const MONO = "font-mono text-xs";
const grouped = (c: AuditCellContext) => c.entry.events.length > 1;

function When({ iso, tz }: { iso: string; tz: TimeZoneChoice }) {
  return <time dateTime={iso}>{formatAuditTime(iso, tz)}</time>;
}

function Reader({ event }: { event: AuditEventData }) {
  const { name, subject } = describeReader(event);
  return (
    <>
      <span className="font-medium" title={subject ?? undefined}>
        {name}
      </span>
      <span className="block text-xs text-slate-600">
        {subject ? `${subject} · ` : ""}
        {event.auth_mode}
        {event.scopes.includes("players:pii") ? "" : " · contact data masked"}
      </span>
    </>
  );
}

/** The player the read named, as a link; for a search, how many players it returned; else (the audit page) all. */
function PlayerCell({ event }: { event: AuditEventData }) {
  if (event.player_id) {
    return (
      <Link
        href={`/players/${encodeURIComponent(event.player_id)}`}
        className="text-indigo-700 underline-offset-2 hover:underline"
      >
        {event.player_id}
      </Link>
    );
  }
  if (event.operation !== "search") return <span className="text-slate-600">all players</span>;
  const n = event.result_player_ids.length;
  return <span className="text-slate-600">{n === 1 ? "1 player found" : `${n} players found`}</span>;
}

const WHEN: AuditColumn = {
  id: "when",
  header: "When",
  className: `whitespace-nowrap ${MONO}`,
  cell: (c) => <When iso={c.event.occurred_at} tz={c.tz} />,
  read: (e, tz) => <When iso={e.occurred_at} tz={tz} />,
};

const COMMON_BEFORE: readonly AuditColumn[] = [
  WHEN,
  {
    id: "who",
    header: "Who",
    className: "min-w-40",
    cell: (c) => <Reader event={c.event} />,
    read: () => null,
  },
  {
    id: "what",
    header: "What",
    className: "min-w-48",
    cell: (c) => c.what,
    read: (e) => describeOperation(e.operation),
  },
];

const PLAYER: AuditColumn = {
  id: "player",
  header: "Player",
  className: `whitespace-nowrap ${MONO}`,
  cell: (c) => <PlayerCell event={c.event} />,
  read: (e) => <PlayerCell event={e} />,
};

const COMMON_AFTER: readonly AuditColumn[] = [
  {
    id: "parameters",
    header: "Parameters",
    className: `max-w-xs break-words ${MONO}`,
    cell: (c) => (grouped(c) ? "—" : describeFilters(c.event.filters)),
    read: (e) => describeFilters(e.filters),
  },
  {
    id: "session",
    header: "Session",
    className: `max-w-[10rem] truncate ${MONO}`,
    cell: (c) => c.event.session_id,
    read: () => null,
    title: (e) => e.session_id,
  },
  {
    id: "address",
    header: "Address",
    className: MONO,
    cell: (c) => c.event.client_address ?? "—",
    read: () => null,
  },
  {
    id: "request_id",
    header: "Request id",
    className: `max-w-[10rem] truncate ${MONO}`,
    cell: (c) => (grouped(c) ? "—" : c.event.request_id),
    read: (e) => e.request_id,
    title: (e) => e.request_id,
  },
];

/** A player's trail (the player is the page's) and the admins' page across players (a Player column). */
export function auditColumns({ withPlayer }: { withPlayer: boolean }): readonly AuditColumn[] {
  return [...COMMON_BEFORE, ...(withPlayer ? [PLAYER] : []), ...COMMON_AFTER];
}
