"use client";

import { ChevronDown } from "lucide-react";
import {
  type MultiSelectOption,
  selectionSummary,
  shownOptions,
  toggleValue,
} from "@/features/transactions/client/multi-select";
import { formatCount } from "@/platform/format/money";
import { cn } from "@/platform/ui/cn";
import { useDropdownPanel } from "@/platform/ui/hooks/use-dropdown-panel";

/**
 * A button that opens a list of checkboxes. Native checkboxes keep it keyboard- and screen-reader-
 * friendly: Tab/Shift+Tab move, Space toggles, Escape closes and returns to the button.
 */
export function MultiSelect({
  label,
  options,
  selected,
  onChange,
  emptyText = "No options",
  testId,
}: {
  label: string;
  options: MultiSelectOption[];
  selected: readonly string[];
  onChange: (values: string[]) => void;
  emptyText?: string;
  testId?: string;
}) {
  const { open, toggle, rootRef, buttonRef, panelRef, panelId, onKeyDown, onBlur } = useDropdownPanel();
  const summary = selectionSummary(selected, options);
  const shown = shownOptions(options, selected);

  return (
    // biome-ignore lint/a11y/noStaticElementInteractions: Escape anywhere inside closes the panel
    <div ref={rootRef} className="relative" onKeyDown={onKeyDown} onBlur={onBlur} data-testid={testId}>
      <button
        ref={buttonRef}
        type="button"
        aria-expanded={open}
        aria-controls={panelId}
        onClick={toggle}
        className={cn(
          "inline-flex h-9 w-full items-center justify-between gap-2 rounded-md border bg-white px-3 text-sm sm:w-auto sm:min-w-40",
          "focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600",
          selected.length ? "border-indigo-400 text-slate-900" : "border-slate-300 text-slate-800",
        )}
      >
        <span className="truncate">
          <span className="font-medium">{label}:</span> <span className="text-slate-700">{summary}</span>
        </span>
        <ChevronDown aria-hidden="true" className="size-4 shrink-0 text-slate-500" />
      </button>
      <div
        ref={panelRef}
        id={panelId}
        hidden={!open}
        className="absolute left-0 z-20 mt-1 w-72 max-w-[calc(100vw-2rem)] rounded-md border border-slate-200 bg-white p-1 shadow-lg"
      >
        <fieldset>
          <legend className="sr-only">{label}</legend>
          {shown.length === 0 ? <p className="px-2 py-1.5 text-sm text-slate-600">{emptyText}</p> : null}
          <div className="max-h-72 overflow-y-auto">
            {shown.map((o) => (
              <OptionRow
                key={o.value}
                option={o}
                checked={selected.includes(o.value)}
                onToggle={() => onChange(toggleValue(selected, o.value))}
              />
            ))}
          </div>
        </fieldset>
        {selected.length > 0 ? (
          <div className="mt-1 border-t border-slate-100 pt-1">
            <button
              type="button"
              onClick={() => onChange([])}
              className="w-full rounded px-2 py-1.5 text-left text-sm text-indigo-700 hover:bg-slate-100 focus-visible:outline-2 focus-visible:outline-indigo-600"
            >
              Clear {label.toLowerCase()}
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}

/** One option: a native checkbox with its label, hint and count. */
function OptionRow({
  option,
  checked,
  onToggle,
}: {
  option: MultiSelectOption;
  checked: boolean;
  onToggle: () => void;
}) {
  return (
    <label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-slate-800 hover:bg-slate-100">
      <input
        type="checkbox"
        className="size-4 shrink-0 cursor-pointer rounded-sm accent-indigo-600"
        checked={checked}
        onChange={onToggle}
      />
      <span className="min-w-0 flex-1">
        <span className="block truncate">{option.label}</span>
        {option.hint ? <span className="block truncate text-xs text-slate-600">{option.hint}</span> : null}
      </span>
      {option.count !== undefined ? (
        <span className="text-xs tabular-nums text-slate-600">{formatCount(option.count)}</span>
      ) : null}
    </label>
  );
}
