import { Users } from "lucide-react";
import { type AuditReaderData, readersHeadline } from "@/features/audit/client/audit-trail";
import { formatDateTime } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { formatCount } from "@/platform/format/money";

/**
 * With a player filter, the answer to "who read this player" before the list: per user, how often and when last
 * (the API's `readers`, under the same filters; admins' reads of the trail never count).
 */
export function PlayerReaders({
  playerId,
  readers,
  tz,
}: {
  playerId: string;
  readers: readonly AuditReaderData[];
  tz: TimeZoneChoice;
}) {
  return (
    <section
      aria-label={`Who read ${playerId}`}
      data-testid="player-readers"
      className="rounded-lg border border-indigo-200 bg-indigo-50 p-4 text-sm text-slate-800"
    >
      <p className="flex items-center gap-2 font-medium text-slate-900">
        <Users aria-hidden="true" className="size-4 shrink-0 text-indigo-700" />
        {readersHeadline(playerId, readers)}
      </p>
      {readers.length > 0 ? (
        <ul className="mt-2 flex flex-wrap gap-x-6 gap-y-1">
          {readers.map((r) => (
            <li key={r.subject} data-testid="player-reader">
              <span className="font-medium">{r.subject_name ?? r.subject}</span>
              {r.subject_name ? (
                <span className="ml-1 font-mono text-xs text-slate-600">{r.subject}</span>
              ) : null}
              <span className="text-slate-700">
                {" "}
                · {r.reads === 1 ? "once" : `${formatCount(r.reads)} times`} · last{" "}
                {formatDateTime(r.last_read_at, tz)}
              </span>
            </li>
          ))}
        </ul>
      ) : null}
    </section>
  );
}
