import { SORT_LABELS, TRANSACTION_STATUS_LABELS } from "@/features/transactions/client/transaction-labels";
import type { TimeZoneChoice } from "@/platform/format/days";
import { EVENT_TYPE_LABELS } from "@/platform/format/labels";
import { formatCount } from "@/platform/format/money";
import { EVENT_TYPES } from "@/platform/schemas/enums";
import type { MultiSelectOption } from "./multi-select.ts";
import type { TransactionFacetsData } from "./queries.ts";
import {
  type FilterState,
  presetRange,
  SORTS,
  type SortValue,
  STATUSES,
  type StatusValue,
} from "./transaction-url-state.ts";

/*
 * What the transaction filters offer, from the player's facets (faceted counts) and the view's state, apart
 * from React (features/transactions/ui/transaction-filters.tsx shows them).
 */

type Facets = TransactionFacetsData | undefined;

/** Every event type, with the player's count once the facets are in. */
export function eventTypeOptions(facets: Facets): MultiSelectOption[] {
  const counts = new Map(facets?.event_types.map((t) => [t.value, t.count]));
  return EVENT_TYPES.map((t) => ({ value: t, label: EVENT_TYPE_LABELS[t] ?? t, count: counts.get(t) }));
}

/** The event names the player has, each with its count and the types it occurs under. */
export function eventNameOptions(facets: Facets): MultiSelectOption[] {
  return (facets?.event_names ?? []).map((n) => ({
    value: n.value,
    label: n.value,
    count: n.count,
    hint: n.event_types.map((t) => EVENT_TYPE_LABELS[t] ?? t).join(", "),
  }));
}

/** The creators the player has, and the one in the URL even when the player has none of theirs (count 0). */
export function creatorChoices(facets: Facets, selected: string | null): { value: string; count: number }[] {
  const creators = [...(facets?.created_by ?? [])];
  if (selected && !creators.some((c) => c.value === selected)) creators.push({ value: selected, count: 0 });
  return creators;
}

/** Whether the view's date range is exactly the last `days` days (a preset's button shows as pressed). */
export function isPresetActive(
  state: Pick<FilterState, "from" | "to">,
  days: number,
  tz: TimeZoneChoice,
  now: Date = new Date(),
): boolean {
  const range = presetRange(days, tz, now);
  return state.from === range.from && state.to === range.to;
}

/** One choice of a single-choice menu; the empty value means "no filter". */
export interface SelectOption {
  value: string;
  label: string;
}

/** The "Created by" menu: anyone, then each creator with the player's count ("system (40)"). */
export function creatorOptions(facets: Facets, selected: string | null): SelectOption[] {
  return [
    { value: "", label: "Anyone" },
    ...creatorChoices(facets, selected).map((c) => ({
      value: c.value,
      label: `${c.value} (${formatCount(c.count)})`,
    })),
  ];
}

/** The "Status" menu: any, then each status in words. */
export const STATUS_OPTIONS: readonly SelectOption[] = [
  { value: "", label: "Any" },
  ...STATUSES.map((s) => ({ value: s, label: TRANSACTION_STATUS_LABELS[s].label })),
];

/** The "Sort" menu (phones, where the cards have no headings to sort by): each order, capitalised. */
export const SORT_OPTIONS: readonly SelectOption[] = SORTS.map((s) => ({
  value: s,
  label: SORT_LABELS[s].replace(/^./, (c) => c.toUpperCase()),
}));

/** A status menu's value as a filter: null for "Any" or anything not a status. */
export function statusOf(value: string): StatusValue | null {
  return STATUSES.find((s) => s === value) ?? null;
}

/** A sort menu's value as an order: the default (newest first) for anything not an order. */
export function sortOf(value: string): SortValue {
  return SORTS.find((s) => s === value) ?? "date_desc";
}
