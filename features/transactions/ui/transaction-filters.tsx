"use client";

import { Eraser, Search, X } from "lucide-react";
import { useId, useState } from "react";
import type { TransactionFacetsData } from "@/features/transactions/client/queries";
import {
  creatorOptions,
  eventNameOptions,
  eventTypeOptions,
  isPresetActive,
  SORT_OPTIONS,
  STATUS_OPTIONS,
  sortOf,
  statusOf,
} from "@/features/transactions/client/transaction-filter-options";
import {
  DATE_PRESETS,
  type FilterState,
  isEventType,
  presetRange,
  type SortValue,
  type TransactionViewState,
} from "@/features/transactions/client/transaction-url-state";
import type { HistoryMode } from "@/platform/client/date-draft";
import { timeZoneLabel } from "@/platform/format/dates";
import type { TimeZoneChoice } from "@/platform/format/days";
import { cn } from "@/platform/ui/cn";
import { useDateDraft } from "@/platform/ui/hooks/use-date-draft";
import { Button } from "../../../platform/ui/button.tsx";
import { MultiSelect } from "./multi-select.tsx";

export type FilterPatch = Partial<FilterState>;

const controlClass =
  "h-9 w-full rounded-md border border-slate-300 bg-white px-2.5 text-sm text-slate-900 focus-visible:border-indigo-600 focus-visible:outline-2 focus-visible:outline-offset-0 focus-visible:outline-indigo-600";

export function TransactionFilters({
  state,
  facets,
  tz,
  onChange,
  onSort,
  onClear,
  active,
}: {
  state: TransactionViewState;
  facets: TransactionFacetsData | undefined;
  tz: TimeZoneChoice;
  onChange: (patch: FilterPatch, history?: HistoryMode) => void;
  onSort: (sort: SortValue) => void;
  onClear: () => void;
  active: boolean;
}) {
  return (
    <div className="space-y-3 border-b border-slate-100 px-4 py-3 sm:px-5">
      <div className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
        <EventSelects state={state} facets={facets} onChange={onChange} />
        <ChoiceSelects state={state} facets={facets} onChange={onChange} onSort={onSort} />
        <TransactionIdLookup
          key={state.transaction_id ?? ""}
          value={state.transaction_id}
          onChange={(transaction_id) => onChange({ transaction_id })}
        />
        {active ? (
          <Button variant="ghost" size="sm" onClick={onClear} className="sm:ml-auto">
            <Eraser aria-hidden="true" className="size-4" />
            Clear all filters
          </Button>
        ) : null}
      </div>

      <DateRangeFields state={state} tz={tz} onChange={onChange} />
    </div>
  );
}

/** Event type and event name: several of each, with the player's counts once the facets are in. */
function EventSelects({
  state,
  facets,
  onChange,
}: {
  state: TransactionViewState;
  facets: TransactionFacetsData | undefined;
  onChange: (patch: FilterPatch) => void;
}) {
  return (
    <>
      <MultiSelect
        label="Event type"
        testId="filter-event-type"
        options={eventTypeOptions(facets)}
        selected={state.event_type}
        onChange={(values) => onChange({ event_type: values.filter(isEventType) })}
      />
      <MultiSelect
        label="Event name"
        testId="filter-event-name"
        options={eventNameOptions(facets)}
        selected={state.event_name}
        emptyText={facets ? "This player has no transactions." : "Loading…"}
        onChange={(values) => onChange({ event_name: values })}
      />
    </>
  );
}

/** Creator, status and (on phones) the order: one choice each. */
function ChoiceSelects({
  state,
  facets,
  onChange,
  onSort,
}: {
  state: TransactionViewState;
  facets: TransactionFacetsData | undefined;
  onChange: (patch: FilterPatch) => void;
  onSort: (sort: SortValue) => void;
}) {
  return (
    <>
      <SelectField
        label="Created by"
        className="sm:w-44"
        value={state.created_by ?? ""}
        options={creatorOptions(facets, state.created_by)}
        onChange={(value) => onChange({ created_by: value || null })}
      />
      <SelectField
        label="Status"
        className="sm:w-36"
        value={state.status ?? ""}
        options={STATUS_OPTIONS}
        onChange={(value) => onChange({ status: statusOf(value) })}
      />
      {/* The table's headings sort on wider screens; the cards below 768 px have none. */}
      <SelectField
        label="Sort"
        wrapperClassName="md:hidden"
        value={state.sort}
        options={SORT_OPTIONS}
        onChange={(value) => onSort(sortOf(value))}
      />
    </>
  );
}

/** A labelled single-choice menu on one line. */
function SelectField({
  label,
  value,
  options,
  onChange,
  className,
  wrapperClassName,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  className?: string;
  wrapperClassName?: string;
}) {
  const id = useId();
  return (
    <div className={cn("flex items-center gap-2", wrapperClassName)}>
      <label htmlFor={id} className="whitespace-nowrap text-sm font-medium text-slate-800">
        {label}
      </label>
      <select
        id={id}
        className={cn(controlClass, className)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </div>
  );
}

/** Lookup by exact transaction id: applied on Enter or "Find", so that typing does not fetch on every key. */
function TransactionIdLookup({
  value,
  onChange,
}: {
  value: string | null;
  onChange: (id: string | null) => void;
}) {
  const id = useId();
  const [text, setText] = useState(value ?? "");
  return (
    <form
      aria-label="Find a transaction by id"
      className="flex items-center gap-2"
      onSubmit={(e) => {
        e.preventDefault();
        onChange(text.trim() || null);
      }}
    >
      <label htmlFor={id} className="whitespace-nowrap text-sm font-medium text-slate-800">
        Transaction id
      </label>
      <input
        id={id}
        className={cn(controlClass, "font-mono sm:w-36")}
        value={text}
        maxLength={64}
        spellCheck={false}
        autoComplete="off"
        placeholder="T0000000042"
        onChange={(e) => setText(e.target.value)}
      />
      <Button type="submit" size="sm" variant="secondary" aria-label="Find transaction by id">
        <Search aria-hidden="true" className="size-4" />
      </Button>
      {value ? (
        <Button
          type="button"
          size="sm"
          variant="ghost"
          aria-label="Clear transaction id"
          onClick={() => onChange(null)}
        >
          <X aria-hidden="true" className="size-4" />
        </Button>
      ) : null}
    </form>
  );
}

/**
 * One end of the date range: a labelled date input bounded by the other end. Its day reaches the URL when
 * complete (useDateDraft), so typing a year is not a history entry per keystroke.
 */
function DateField({
  label,
  value,
  min,
  max,
  onCommit,
}: {
  label: string;
  value: string | null;
  min?: string | null;
  max?: string | null;
  onCommit: (day: string | null, history: HistoryMode) => void;
}) {
  const id = useId();
  const draft = useDateDraft(value, onCommit);
  return (
    <div className="flex items-center gap-2">
      <label htmlFor={id} className="w-10 text-sm font-medium text-slate-800 sm:w-auto">
        {label}
      </label>
      <input
        id={id}
        type="date"
        className={cn(controlClass, "sm:w-40")}
        value={draft.value}
        min={min ?? undefined}
        max={max ?? undefined}
        onFocus={draft.onFocus}
        onChange={(e) => draft.onChange(e.target.value)}
        onBlur={draft.onBlur}
        onKeyDown={draft.onKeyDown}
      />
    </div>
  );
}

/** The date range: two day inputs and the presets, whole days in the chosen time zone. */
function DateRangeFields({
  state,
  tz,
  onChange,
}: {
  state: FilterState;
  tz: TimeZoneChoice;
  onChange: (patch: FilterPatch, history?: HistoryMode) => void;
}) {
  return (
    <fieldset className="flex flex-col gap-2 sm:flex-row sm:flex-wrap sm:items-center">
      <legend className="sr-only">Date range, whole days in {timeZoneLabel(tz)}</legend>
      <DateField
        label="From"
        value={state.from}
        max={state.to}
        onCommit={(from, history) => onChange({ from }, history)}
      />
      <DateField
        label="To"
        value={state.to}
        min={state.from}
        onCommit={(to, history) => onChange({ to }, history)}
      />
      <span className="text-xs text-slate-600">Whole days, {timeZoneLabel(tz)}</span>
      <div className="flex flex-wrap gap-1.5 sm:ml-2">
        {DATE_PRESETS.map((p) => (
          <Button
            key={p.days}
            size="sm"
            variant="secondary"
            aria-pressed={isPresetActive(state, p.days, tz)}
            className={cn(
              isPresetActive(state, p.days, tz) && "border-indigo-500 bg-indigo-50 text-indigo-900",
            )}
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
  );
}
