"use client";

import { useCallback, useEffect, useRef, useState } from "react";
import {
  AuditTrailError,
  describeFilters,
  describeOperation,
  type FetchLike,
  fetchAuditPage,
} from "@/lib/audit/audit-client";
import { AUDIT_OPERATIONS, type AuditEvent, type AuditOperation } from "@/lib/schemas/audit";

/*
 * Read-only view of a player's audit trail (admins): who read this player's data, when, from which
 * session and address, with which parameters. Self-contained: give it the player id and a fetch-like
 * function that authorizes requests as the signed-in user.
 */

const PAGE_SIZE = 25;

interface State {
  events: AuditEvent[];
  total: number | null;
  nextCursor: string | null;
  loading: boolean;
  error: AuditTrailError | Error | null;
}

const INITIAL: State = { events: [], total: null, nextCursor: null, loading: true, error: null };

function formatTime(iso: string): string {
  // Fixed locale and UTC: an audit trail is compared across people and time zones.
  return `${iso.slice(0, 10)} ${iso.slice(11, 19)} UTC`;
}

export function AuditTrail({
  playerId,
  fetcher,
  pageSize = PAGE_SIZE,
}: {
  playerId: string;
  fetcher: FetchLike;
  pageSize?: number;
}) {
  const [operation, setOperation] = useState<AuditOperation | "all">("all");
  const [state, setState] = useState<State>(INITIAL);
  // Ignore answers to requests that a newer one (another filter, another player) has superseded.
  const generation = useRef(0);

  const load = useCallback(
    async (cursor: string | null, append: boolean) => {
      const mine = ++generation.current;
      setState((s) => ({ ...(append ? s : INITIAL), loading: true, error: null }));
      try {
        const page = await fetchAuditPage(fetcher, playerId, {
          cursor,
          limit: pageSize,
          operations: operation === "all" ? undefined : [operation],
        });
        if (mine !== generation.current) return;
        setState((s) => ({
          events: append ? [...s.events, ...page.events] : page.events,
          total: page.total,
          nextCursor: page.next_cursor,
          loading: false,
          error: null,
        }));
      } catch (error) {
        if (mine !== generation.current) return;
        setState((s) => ({
          ...s,
          loading: false,
          error: error instanceof Error ? error : new Error(String(error)),
        }));
      }
    },
    [fetcher, playerId, pageSize, operation],
  );

  useEffect(() => {
    void load(null, false);
  }, [load]);

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
            {state.total !== null ? ` · ${state.total} in total` : ""}.
          </p>
        </div>
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Show
          <select
            className="rounded border border-slate-300 bg-white px-2 py-1 text-sm"
            value={operation}
            onChange={(e) => setOperation(e.target.value as AuditOperation | "all")}
          >
            <option value="all">all reads</option>
            {AUDIT_OPERATIONS.map((op) => (
              <option key={op} value={op}>
                {describeOperation(op)}
              </option>
            ))}
          </select>
        </label>
      </div>

      {state.error && state.events.length === 0 ? (
        <div role="alert" className="px-4 py-6 text-sm">
          <p className="font-semibold text-slate-900">Could not load the audit trail</p>
          <p className="mt-1 text-slate-700">{state.error.message}</p>
          {state.error instanceof AuditTrailError && state.error.requestId ? (
            <p className="mt-1 text-xs text-slate-600">
              Request id: <code className="select-all font-mono">{state.error.requestId}</code>
            </p>
          ) : null}
          <button
            type="button"
            className="mt-3 rounded border border-slate-300 px-3 py-1 text-sm hover:bg-slate-50"
            onClick={() => void load(null, false)}
          >
            Retry
          </button>
        </div>
      ) : (
        <div className="overflow-x-auto">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Reads of player {playerId}'s data, newest first</caption>
            <thead className="bg-slate-50 text-xs uppercase tracking-wide text-slate-600">
              <tr>
                <th scope="col" className="px-4 py-2">
                  When
                </th>
                <th scope="col" className="px-4 py-2">
                  Who
                </th>
                <th scope="col" className="px-4 py-2">
                  What
                </th>
                <th scope="col" className="px-4 py-2">
                  Parameters
                </th>
                <th scope="col" className="px-4 py-2">
                  Session
                </th>
                <th scope="col" className="px-4 py-2">
                  Address
                </th>
                <th scope="col" className="px-4 py-2">
                  Request id
                </th>
              </tr>
            </thead>
            <tbody>
              {state.events.map((e) => (
                <tr key={e.id} className="border-t border-slate-100 align-top">
                  <td className="whitespace-nowrap px-4 py-2 font-mono text-xs">
                    {formatTime(e.occurred_at)}
                  </td>
                  <td className="px-4 py-2">
                    <span className="font-medium">{e.subject}</span>
                    <span className="block text-xs text-slate-500">
                      {e.auth_mode}
                      {e.scopes.includes("players:pii") ? "" : " · contact data masked"}
                    </span>
                  </td>
                  <td className="px-4 py-2">{describeOperation(e.operation)}</td>
                  <td className="max-w-xs break-words px-4 py-2 font-mono text-xs">
                    {describeFilters(e.filters)}
                  </td>
                  <td className="max-w-[10rem] truncate px-4 py-2 font-mono text-xs" title={e.session_id}>
                    {e.session_id}
                  </td>
                  <td className="px-4 py-2 font-mono text-xs">{e.client_address ?? "—"}</td>
                  <td className="max-w-[10rem] truncate px-4 py-2 font-mono text-xs" title={e.request_id}>
                    {e.request_id}
                  </td>
                </tr>
              ))}
              {!state.loading && state.events.length === 0 ? (
                <tr>
                  <td colSpan={7} className="px-4 py-6 text-center text-slate-600">
                    No reads recorded{operation === "all" ? "" : " of this kind"}.
                  </td>
                </tr>
              ) : null}
            </tbody>
          </table>
        </div>
      )}

      <div className="flex items-center justify-between border-t border-slate-200 px-4 py-3 text-sm">
        <span aria-live="polite" className="text-slate-600">
          {state.loading
            ? "Loading…"
            : `Showing ${state.events.length}${state.total !== null ? ` of ${state.total}` : ""}`}
        </span>
        {state.nextCursor ? (
          <button
            type="button"
            disabled={state.loading}
            className="rounded border border-slate-300 px-3 py-1 hover:bg-slate-50 disabled:opacity-50"
            onClick={() => void load(state.nextCursor, true)}
          >
            Load more
          </button>
        ) : null}
      </div>
    </section>
  );
}
