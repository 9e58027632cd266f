/*
 * The multi-select's rules, apart from React (features/transactions/ui/multi-select.tsx): ticking a value,
 * what the closed button says, and which options the open list shows.
 */

export interface MultiSelectOption {
  value: string;
  label: string;
  count?: number;
  hint?: string;
}

/** The selection with `value` ticked or unticked, in the order the values were ticked. */
export function toggleValue(selected: readonly string[], value: string): string[] {
  return selected.includes(value) ? selected.filter((v) => v !== value) : [...selected, value];
}

/** What the closed button says: "Any", up to two labels, or how many are ticked. */
export function selectionSummary(selected: readonly string[], options: readonly MultiSelectOption[]): string {
  if (selected.length === 0) return "Any";
  if (selected.length > 2) return `${selected.length} selected`;
  return selected.map((v) => options.find((o) => o.value === v)?.label ?? v).join(", ");
}

/** The options, then values in the URL that this player does not have (count 0), so they can be unticked. */
export function shownOptions(
  options: readonly MultiSelectOption[],
  selected: readonly string[],
): MultiSelectOption[] {
  const missing = selected.filter((v) => !options.some((o) => o.value === v));
  return [...options, ...missing.map((v) => ({ value: v, label: v, count: 0 }))];
}
