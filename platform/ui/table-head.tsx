import { ArrowDown, ArrowUp, ArrowUpDown } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/platform/ui/cn";

/** A sortable column's order: `direction` null while the table is sorted by another column. */
export interface ColumnSort {
  direction: "asc" | "desc" | null;
  onSort: () => void;
  /** What the button does, for screen readers, where the heading alone does not say it. */
  label?: string | undefined;
  /** How the column orders ("by size"), shown while the table is sorted by it. */
  hint?: string | undefined;
}

const ARIA_SORT = { asc: "ascending", desc: "descending" } as const;

/** A table's headings, one row per header group (TanStack Table's `getHeaderGroups()`). */
export function TableHead<H>({
  groups,
  children,
}: {
  groups: readonly { id: string; headers: readonly H[] }[];
  children: (header: H) => ReactNode;
}) {
  return (
    <thead className="bg-slate-50">
      {groups.map((group) => (
        <tr key={group.id} className="border-b border-slate-200">
          {group.headers.map(children)}
        </tr>
      ))}
    </thead>
  );
}

/**
 * A column heading; a sortable column's is a button that sorts by it, its arrow (and aria-sort) saying
 * whether the table is sorted by it and which way. `className`: the padding and alignment.
 */
export function ColumnHeading({
  sort,
  className,
  children,
}: {
  sort?: ColumnSort | undefined;
  className: string;
  children: ReactNode;
}) {
  const direction = sort?.direction;
  const Icon = direction === "desc" ? ArrowDown : direction === "asc" ? ArrowUp : ArrowUpDown;
  return (
    <th
      scope="col"
      aria-sort={sort ? (direction ? ARIA_SORT[direction] : "none") : undefined}
      className={cn(
        "whitespace-nowrap py-2.5 text-xs font-semibold uppercase tracking-wide text-slate-600",
        className,
      )}
    >
      {sort ? (
        <button
          type="button"
          onClick={sort.onSort}
          aria-label={sort.label}
          className="inline-flex items-center gap-1 rounded uppercase tracking-wide hover:text-slate-900 focus-visible:outline-2 focus-visible:outline-indigo-600"
        >
          {children}
          <Icon
            aria-hidden="true"
            className={cn("size-3.5", direction ? "text-indigo-700" : "text-slate-400")}
          />
          {direction && sort.hint ? (
            <span className="normal-case tracking-normal text-slate-700">({sort.hint})</span>
          ) : null}
        </button>
      ) : (
        children
      )}
    </th>
  );
}
