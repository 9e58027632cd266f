"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useMemo, useState } from "react";
import { groupAuditEvents } from "@/features/audit/client/audit-labels";
import { auditQueries } from "@/features/audit/client/queries";
import type { AuditOperation } from "@/features/audit/schema/audit";
import { AuditLoadError } from "./audit-load-error.tsx";
import { AuditOperationOptions } from "./audit-operation-options.tsx";
import { AuditTable } from "./audit-table.tsx";
import { LoadMoreFooter } from "./load-more-footer.tsx";

/*
 * Read-only view of a player's audit trail (admins): who read this player's data, when, from which
 * session and address, with which parameters; the reads of one page view make one entry. Reads through
 * auditQueries.auditTrail as the signed-in user.
 */

const PAGE_SIZE = 25;

export function AuditTrail({ playerId, pageSize = PAGE_SIZE }: { playerId: string; pageSize?: number }) {
  const [operation, setOperation] = useState<AuditOperation | "all">("all");
  // Another filter is another query key: a late answer for the previous filter never shows under this one.
  const trail = useInfiniteQuery(
    auditQueries.auditTrail(playerId, {
      limit: pageSize,
      operations: operation === "all" ? undefined : [operation],
    }),
  );
  const events = trail.data?.events ?? [];
  const total = trail.data?.total ?? null;
  const loading = trail.isFetching;
  const entries = useMemo(() => groupAuditEvents(events).length, [events]);

  const headingId = `audit-trail-${playerId}`;
  return (
    <section aria-labelledby={headingId} className="rounded-lg border border-slate-200 bg-white">
      <div className="flex flex-wrap items-center justify-between gap-3 border-b border-slate-200 px-4 py-3">
        <div>
          <h2 id={headingId} className="text-base font-semibold text-slate-900">
            Audit trail
          </h2>
          <p className="text-sm text-slate-600">
            Every read of this player's data. Read-only
            {total !== null ? ` · ${total} in total` : ""}.
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Show
          <select
            className="min-w-0 max-w-[14rem] rounded border border-slate-300 bg-white px-2 py-1 text-sm"
            value={operation}
            onChange={(e) => setOperation(e.target.value as AuditOperation | "all")}
          >
            <AuditOperationOptions allValue="all" allLabel="all reads" />
          </select>
        </label>
      </div>

      {trail.isError && events.length === 0 ? (
        <AuditLoadError error={trail.error} onRetry={() => void trail.refetch()} />
      ) : (
        <AuditTable
          events={events}
          caption={`Reads of player ${playerId}'s data, newest first`}
          withPlayer={false}
          empty={loading ? null : `No reads recorded${operation === "all" ? "" : " of this kind"}.`}
        />
      )}

      <LoadMoreFooter list={trail} reads={events.length} entries={entries} total={total} />
    </section>
  );
}
