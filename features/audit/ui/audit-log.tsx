"use client";

import { useInfiniteQuery } from "@tanstack/react-query";
import { useQueryStates } from "nuqs";
import { type FormEvent, useMemo } from "react";
import { groupAuditEvents } from "@/features/audit/client/audit-labels";
import {
  type AuditPageState,
  auditPageSearchParams,
  toAuditLogFilter,
} from "@/features/audit/client/audit-trail";
import { auditQueries } from "@/features/audit/client/queries";
import type { AuditOperation } from "@/features/audit/schema/audit";
import { TimeZoneSwitch } from "@/features/players/client";
import { buttonClass } from "@/platform/ui/button";
import { useTimeZone } from "@/platform/ui/hooks/use-time-zone";
import { AuditLoadError } from "./audit-load-error.tsx";
import { AuditOperationOptions } from "./audit-operation-options.tsx";
import { AuditTable } from "./audit-table.tsx";
import { LoadMoreFooter } from "./load-more-footer.tsx";
import { PlayerReaders } from "./player-readers.tsx";

const PAGE_SIZE = 50;

/*
 * The admins' audit page: every read of player data across all players, newest first, filtered by user,
 * player, operation and period (days in the page's time zone). The filters live in the URL; the cursor does
 * not (Load more appends to what is shown).
 */
export function AuditLog({ pageSize = PAGE_SIZE }: { pageSize?: number }) {
  const [state, setState] = useQueryStates(auditPageSearchParams, { history: "push" });
  const [tz] = useTimeZone();
  const log = useInfiniteQuery(auditQueries.auditLog(toAuditLogFilter(state, tz, pageSize)));
  const events = log.data?.events ?? [];
  const entries = useMemo(() => groupAuditEvents(events).length, [events]);
  const loading = log.isFetching;
  const filtered = Object.values(state).some(Boolean);
  const player = state.player?.trim();

  return (
    <div className="space-y-4">
      <div className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="text-xl font-semibold text-slate-900">Audit trail</h1>
          <p className="text-sm text-slate-600">
            Every read of player data, across all players. Read-only.
            {state.audit_reads || state.operation ? null : " Admins' reads of this trail are hidden."}
          </p>
        </div>
        <TimeZoneSwitch />
      </div>
      <AuditFilters key={JSON.stringify(state)} state={state} onApply={(next) => void setState(next)} />
      {player && log.data ? (
        <PlayerReaders playerId={player} readers={log.data.readers ?? []} tz={tz} />
      ) : null}
      <section aria-label="Recorded reads" className="rounded-lg border border-slate-200 bg-white">
        {log.isError && events.length === 0 ? (
          <AuditLoadError error={log.error} onRetry={() => void log.refetch()} />
        ) : (
          <AuditTable
            events={events}
            caption="Reads of player data, newest first"
            withPlayer
            empty={loading ? null : filtered ? "No reads match these filters." : "No reads recorded yet."}
          />
        )}
        <LoadMoreFooter list={log} reads={events.length} entries={entries} />
      </section>
    </div>
  );
}

const FIELD = "mt-1 block w-full rounded-md border border-slate-300 bg-white px-2.5 py-1.5 text-sm";

/** The filter form: edits stay local until Apply, so typing a name does not send a request per key. */
function AuditFilters({
  state,
  onApply,
}: {
  state: AuditPageState;
  onApply: (next: AuditPageState) => void;
}) {
  const submit = (e: FormEvent<HTMLFormElement>) => {
    e.preventDefault();
    const form = new FormData(e.currentTarget);
    const text = (name: string) => {
      const value = String(form.get(name) ?? "").trim();
      return value === "" ? null : value;
    };
    onApply({
      user: text("user"),
      player: text("player"),
      operation: (text("operation") as AuditOperation | null) ?? null,
      from: text("from"),
      to: text("to"),
      audit_reads: form.get("audit_reads") === "on" ? true : null,
    });
  };
  const clear = { user: null, player: null, operation: null, from: null, to: null, audit_reads: null };
  return (
    <form
      onSubmit={submit}
      aria-label="Filter the audit trail"
      className="grid grid-cols-1 gap-3 rounded-lg border border-slate-200 bg-white p-4 sm:grid-cols-2 lg:grid-cols-6"
    >
      <label className="text-sm text-slate-700">
        User (name or id)
        <input name="user" defaultValue={state.user ?? ""} className={FIELD} placeholder="e.g. Alex" />
      </label>
      <label className="text-sm text-slate-700">
        Player id
        <input name="player" defaultValue={state.player ?? ""} className={FIELD} placeholder="e.g. P000042" />
      </label>
      <label className="text-sm text-slate-700">
        Operation
        <select name="operation" defaultValue={state.operation ?? ""} className={FIELD}>
          <AuditOperationOptions allValue="" allLabel="All reads" />
        </select>
      </label>
      <label className="text-sm text-slate-700">
        From
        <input type="date" name="from" defaultValue={state.from ?? ""} className={FIELD} />
      </label>
      <label className="text-sm text-slate-700">
        To
        <input type="date" name="to" defaultValue={state.to ?? ""} className={FIELD} />
      </label>
      <label className="flex items-center gap-2 text-sm text-slate-700 sm:col-span-2 lg:col-span-6 lg:order-last">
        <input
          type="checkbox"
          name="audit_reads"
          defaultChecked={Boolean(state.audit_reads)}
          className="size-4 rounded border-slate-300 accent-indigo-600"
        />
        Also show admins' reads of this audit trail (hidden by default)
      </label>
      <div className="flex items-end gap-2">
        <button type="submit" className={buttonClass("primary", "sm")}>
          Apply
        </button>
        <button type="button" className={buttonClass("ghost", "sm")} onClick={() => onApply(clear)}>
          Clear
        </button>
      </div>
    </form>
  );
}
