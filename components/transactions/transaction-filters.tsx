"use client";

import { Eraser } from "lucide-react";
import { useId } from "react";
import {
  DATE_PRESETS,
  isEventType,
  presetRange,
  type TimeZoneChoice,
  type TransactionViewState,
} from "@/lib/client/transaction-url-state";
import type { TransactionFacetsData } from "@/lib/client/wire";
import { cn } from "@/lib/cn";
import { timeZoneLabel } from "@/lib/format/dates";
import { EVENT_TYPE_LABELS } from "@/lib/format/labels";
import { formatCount } from "@/lib/format/money";
import { EVENT_TYPES } from "@/lib/schemas/enums";
import { Button } from "../ui/button.tsx";
import { MultiSelect } from "./multi-select.tsx";

export type FilterPatch = Partial<
  Pick<TransactionViewState, "event_type" | "event_name" | "created_by" | "from" | "to">
>;

const controlClass =
  "h-9 w-full rounded-md border border-slate-300 bg-white px-2.5 text-sm text-slate-900 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600";

export function TransactionFilters({
  state,
  facets,
  tz,
  onChange,
  onClear,
  active,
}: {
  state: TransactionViewState;
  facets: TransactionFacetsData | undefined;
  tz: TimeZoneChoice;
  onChange: (patch: FilterPatch) => void;
  onClear: () => void;
  active: boolean;
}) {
  const fromId = useId();
  const toId = useId();
  const creatorId = useId();
  const typeCounts = new Map(facets?.event_types.map((t) => [t.value, t.count]));
  const typeOptions = EVENT_TYPES.map((t) => ({
    value: t,
    label: EVENT_TYPE_LABELS[t] ?? t,
    count: typeCounts.get(t),
  }));
  const nameOptions = (facets?.event_names ?? []).map((n) => ({
    value: n.value,
    label: n.value,
    count: n.count,
    hint: n.event_types.map((t) => EVENT_TYPE_LABELS[t] ?? t).join(", "),
  }));
  const creators = [...(facets?.created_by ?? [])];
  const creatorValues = creators.map((c) => c.value);
  if (state.created_by && !creatorValues.includes(state.created_by)) {
    creators.push({ value: state.created_by, count: 0 });
  }
  const presetActive = (days: number) => {
    const range = presetRange(days, tz);
    return state.from === range.from && state.to === range.to;
  };

  return (
    <div className="space-y-3 border-b border-slate-100 px-4 py-3 sm:px-5">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <MultiSelect
          label="Event type"
          testId="filter-event-type"
          options={typeOptions}
          selected={state.event_type}
          onChange={(values) => onChange({ event_type: values.filter(isEventType) })}
        />
        <MultiSelect
          label="Event name"
          testId="filter-event-name"
          options={nameOptions}
          selected={state.event_name}
          emptyText={facets ? "This player has no transactions." : "Loading…"}
          onChange={(values) => onChange({ event_name: values })}
        />
        <div className="flex items-center gap-2">
          <label htmlFor={creatorId} className="whitespace-nowrap text-sm font-medium text-slate-800">
            Created by
          </label>
          <select
            id={creatorId}
            className={cn(controlClass, "sm:w-44")}
            value={state.created_by ?? ""}
            onChange={(e) => onChange({ created_by: e.target.value || null })}
          >
            <option value="">Anyone</option>
            {creators.map((c) => (
              <option key={c.value} value={c.value}>
                {c.value} ({formatCount(c.count)})
              </option>
            ))}
          </select>
        </div>
        {active ? (
          <Button variant="ghost" size="sm" onClick={onClear} className="sm:ml-auto">
            <Eraser aria-hidden="true" className="size-4" />
            Clear all filters
          </Button>
        ) : null}
      </div>

      <fieldset className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <legend className="sr-only">Date range, whole days in {timeZoneLabel(tz)}</legend>
        <div className="flex items-center gap-2">
          <label htmlFor={fromId} className="w-10 text-sm font-medium text-slate-800 sm:w-auto">
            From
          </label>
          <input
            id={fromId}
            type="date"
            className={cn(controlClass, "sm:w-40")}
            value={state.from ?? ""}
            max={state.to ?? undefined}
            onChange={(e) => onChange({ from: e.target.value || null })}
          />
        </div>
        <div className="flex items-center gap-2">
          <label htmlFor={toId} className="w-10 text-sm font-medium text-slate-800 sm:w-auto">
            To
          </label>
          <input
            id={toId}
            type="date"
            className={cn(controlClass, "sm:w-40")}
            value={state.to ?? ""}
            min={state.from ?? undefined}
            onChange={(e) => onChange({ to: e.target.value || null })}
          />
        </div>
        <span className="text-xs text-slate-600">Whole days, {timeZoneLabel(tz)}</span>
        <div className="flex flex-wrap gap-1.5 sm:ml-2">
          {DATE_PRESETS.map((p) => (
            <Button
              key={p.days}
              size="sm"
              variant="secondary"
              aria-pressed={presetActive(p.days)}
              className={cn(presetActive(p.days) && "border-indigo-500 bg-indigo-50 text-indigo-900")}
              onClick={() => onChange(presetRange(p.days, tz))}
            >
              {p.label}
            </Button>
          ))}
          <Button
            size="sm"
            variant="secondary"
            aria-pressed={!state.from && !state.to}
            className={cn(!state.from && !state.to && "border-indigo-500 bg-indigo-50 text-indigo-900")}
            onClick={() => onChange({ from: null, to: null })}
          >
            All dates
          </Button>
        </div>
      </fieldset>
    </div>
  );
}
